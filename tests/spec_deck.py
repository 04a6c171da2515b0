"""SPEC §3 read by a second implementer: the deck protocol's derivations, proofs and
audit written from the SPEC's text alone, over libsodium (PyNaCl's bindings, for the
point arithmetic only) and hashlib — not the code under test.
`tests/test_conformance.py` replays a whole recorded round through it and re-derives
every ACK's log-state hash (§4.4).

Integers are Python ints mod l; points are 32-byte edwards25519 encodings. Whether bytes
are a point of the group is decided here (§3.1) from the curve equation and a
multiplication by l in plain integers, and card points are hashed to the curve here
(Elligator 2 as §3.1 writes it), not by the library."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field

from nacl import bindings as sodium

P = 2**255 - 19
"""The field prime of edwards25519."""
L = 2**252 + 27742317777372353535851937790883648493
"""The order of its prime-order subgroup."""
D = -121665 * pow(121666, -1, P) % P
"""The curve's d: -x^2 + y^2 = 1 + d x^2 y^2."""
A = 486662
"""Curve25519's A (the Montgomery form), for Elligator 2."""
SQRT_M1 = pow(2, (P - 1) // 4, P)
ALL = 255


def u8(v: int) -> bytes:
    return v.to_bytes(1, "big")


def u16(v: int) -> bytes:
    return v.to_bytes(2, "big")


def u32(v: int) -> bytes:
    return v.to_bytes(4, "big")


def scalar(v: int) -> bytes:
    return (v % L).to_bytes(32, "little")


def hs(*parts: bytes) -> int:
    """§3.1: SHA-512 of x as a little-endian integer, reduced mod l."""
    return int.from_bytes(hashlib.sha512(b"".join(parts)).digest(), "little") % L


def _inv(v: int) -> int:
    return pow(v, P - 2, P)  # 0 for 0, as §3.1 allows


def _sqrt(v: int) -> int | None:
    """A square root mod p (p = 5 mod 8), or None."""
    root = pow(v, (P + 3) // 8, P)
    if root * root % P != v % P:
        root = root * SQRT_M1 % P
    return root if root * root % P == v % P else None


def _x_of(y: int, sign: int) -> int | None:
    """The x of the curve point with this y whose low bit is `sign`, or None."""
    x = _sqrt((y * y - 1) * _inv(D * y * y + 1))
    if x is None or (x == 0 and sign):
        return None
    return P - x if x & 1 != sign else x


Extended = tuple[int, int, int, int]
IDENTITY: Extended = (0, 1, 1, 0)


def _add(p: Extended, q: Extended) -> Extended:
    """Unified addition in extended coordinates (Hisil et al., a = -1)."""
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = 2 * D * t1 * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def _times(k: int, point: Extended) -> Extended:
    result = IDENTITY
    for bit in bin(k)[2:]:
        result = _add(result, result)
        if bit == "1":
            result = _add(result, point)
    return result


def _is_identity(point: Extended) -> bool:
    x, y, z, _ = point
    return x % P == 0 and (y - z) % P == 0


def _encode(point: Extended) -> bytes:
    x, y, z, _ = point
    zi = _inv(z)
    x, y = x * zi % P, y * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


@functools.cache
def valid(point: bytes) -> bool:
    """§3.1: 32 bytes; y (the low 255 bits, little-endian) below p; an x with the top
    bit's parity on the curve (not x = 0 with the bit set); of order l: l*P is the
    identity and P is not (so no point of small order, the identity included)."""
    if len(point) != 32:
        return False
    y, sign = int.from_bytes(point, "little") & (2**255 - 1), point[31] >> 7
    if y >= P:
        return False
    x = _x_of(y, sign)
    if x is None:
        return False
    decoded = (x, y, 1, x * y % P)
    return not _is_identity(decoded) and _is_identity(_times(L, decoded))


def mul(k: int, point: bytes) -> bytes:
    assert valid(point), "a multiplication's point must be valid"
    return sodium.crypto_scalarmult_ed25519_noclamp(scalar(k), point)


def mul_base(k: int) -> bytes:
    return sodium.crypto_scalarmult_ed25519_base_noclamp(scalar(k))


def add(p: bytes, q: bytes) -> bytes:
    assert valid(p) and valid(q), "only points of the group are added"
    return sodium.crypto_core_ed25519_add(p, q)


def canonical_scalar(data: bytes) -> int:
    value = int.from_bytes(data, "little")
    assert len(data) == 32 and 0 < value < L, "a scalar must be canonical and non-zero"
    return value


B = (4 * pow(5, -1, P) % P).to_bytes(32, "little")
"""§3.1: the standard base point: y = 4/5, the x that is even (the top bit 0)."""


def from_uniform(r: bytes) -> bytes:
    """§3.1: Elligator 2 onto Curve25519, mapped to edwards25519, times the cofactor 8."""
    sign = r[31] >> 7
    t = int.from_bytes(r, "little") & (2**255 - 1)
    u = -A * _inv(1 + 2 * t * t) % P
    if _sqrt((u**3 + A * u * u + u) % P) is None:
        u = (-u - A) % P
    degenerate = (u + 1) % P == 0 or (u**3 + A * u * u + u) % P == 0
    y = 1 if degenerate else (u - 1) * _inv(u + 1) % P
    x = _x_of(y, sign) if y != 1 else 0  # y = 1: x = 0, whatever the sign bit
    assert x is not None, "the map's point is on the curve"
    return _encode(_times(8, (x, y, 1, x * y % P)))


def hash_to_point(data: bytes) -> bytes:
    """§3.1: from_uniform(SHA-256(domain || data)); never the identity."""
    point = from_uniform(hashlib.sha256(b"p2p-rommy/v1/point\x00" + data).digest())
    assert valid(point), "a hashed point is a point of the group"
    return point


def card_point(game: bytes, round_no: int, shuffle_pass: int, label: int) -> bytes:
    """§3.2: P(u, label)."""
    digest = hashlib.sha256(
        b"p2p-rommy/v1/card\x00" + game + u32(round_no) + u32(shuffle_pass) + u16(label)
    ).digest()
    return hash_to_point(digest)


def commitment(game: bytes, round_no: int, seat: int, seed: bytes) -> bytes:
    return hashlib.sha256(
        b"p2p-rommy/v1/commit\x00" + game + u32(round_no) + u8(seat) + seed
    ).digest()


def round_scalar(game: bytes, round_no: int, seat: int, shuffle_pass: int, seed: bytes) -> int:
    """§3.2: the first non-zero e for c = 0, 1, ..."""
    for c in range(256):
        e = hs(
            b"p2p-rommy/v1/key\x00", game, u32(round_no), u8(seat), u32(shuffle_pass), u8(c), seed
        )
        if e:
            return e
    raise AssertionError("no non-zero scalar")


def fisher_yates(stream_input: bytes, m: int) -> list[int]:
    """§3.2: Fisher-Yates over SHAKE-256(stream_input), 4-byte big-endian draws with
    rejection; `pi[k]` is the input position output position k takes."""
    size = 8 * m + 64
    stream = hashlib.shake_256(stream_input).digest(size)
    offset = 0
    pi = list(range(m))
    for i in range(m - 1, 0, -1):
        b = i + 1
        while True:
            if offset + 4 > len(stream):
                size *= 2
                stream = hashlib.shake_256(stream_input).digest(size)
            x = int.from_bytes(stream[offset : offset + 4], "big")
            offset += 4
            if x < 2**32 - (2**32 % b):
                break
        j = x % b
        pi[i], pi[j] = pi[j], pi[i]
    return pi


def permutation(game: bytes, round_no: int, seat: int, shuffle_pass: int, m: int, seed: bytes):
    return fisher_yates(
        b"p2p-rommy/v1/perm\x00"
        + game
        + u32(round_no)
        + u8(seat)
        + u32(shuffle_pass)
        + u16(m)
        + seed,
        m,
    )


def deck_digest(points: list[bytes]) -> bytes:
    return hashlib.sha256(b"p2p-rommy/v1/deck\x00" + b"".join(points)).digest()


def lin(terms: list[tuple[int, bytes]]) -> bytes:
    """sum k*P over the terms (§3.5's equations), one multiplication and addition at a
    time; an identity anywhere fails (coincurve refuses it)."""
    total = mul(*terms[0])
    for k, point in terms[1:]:
        total = add(total, mul(k, point))
    return total


def generator(label: bytes) -> bytes:
    """§3.5: Gen(label); `H` is `B` itself (since v6), never a Gen."""
    return hash_to_point(b"p2p-rommy/v4/shuffle-generator\x00" + label)


def chain_weights(seed: bytes, chain: list[bytes]) -> list[int]:
    """§3.5: the weights w joining the chain's links, after the chain, before the
    announcements."""
    seed_w = hashlib.sha256(b"p2p-rommy/v6/shuffle-w\x00" + seed + b"".join(chain)).digest()
    return [hs(b"p2p-rommy/v6/shuffle-w\x00", seed_w, u16(k)) for k in range(len(chain))]


SHUFFLE_PROOF_FIELDS = [
    "u",
    "b",
    "a_t",
    "b_t",
    "c_t",
    "d_t",
    "f_t",
    "e_t",
    "k_a",
    "k_b",
    "k_c",
    "k_d",
    "k_e",
    "k_s",
]
"""§3.7: the proof's list, in order."""


def shuffle_seed(context: bytes, key: bytes, inp: list[bytes], out: list[bytes], u: list[bytes]):
    """§3.5: the first challenge's seed and the vector x."""
    seed = hashlib.sha256(
        b"p2p-rommy/v4/shuffle-x\x00"
        + context
        + u16(len(inp))
        + key
        + deck_digest(inp)
        + deck_digest(out)
        + b"".join(u)
    ).digest()
    x = [hs(b"p2p-rommy/v4/shuffle-xj\x00", seed, u16(j)) for j in range(len(inp))]
    return seed, x


def shuffle_v(seed: bytes, q: dict) -> int:
    return hs(
        b"p2p-rommy/v6/shuffle-v\x00",
        seed,
        *q["b"],
        q["a_t"],
        q["b_t"],
        q["c_t"],
        q["d_t"],
        q["f_t"],
        q["e_t"],
    )


def shuffle_context(game: bytes, round_no: int, shuffle_pass: int, seat: int, binding: bytes):
    return game + u32(round_no) + u32(shuffle_pass) + u8(seat) + binding


def prove_shuffle(context: bytes, e: int, pi: list[int], inp: list[bytes], draw) -> list:
    """§3.5, the prover's side, with `draw()` giving the next 64 random bytes; the proof
    as the §3.7 list."""
    m = len(inp)
    out = [mul(e, inp[pi[k]]) for k in range(m)]
    key = mul_base(e)

    def nonzero() -> int:
        while True:
            value = int.from_bytes(draw(), "little") % L
            if value:
                return value

    h, gu = B, generator(b"u")
    g = [generator(b"g" + u16(i)) for i in range(m)]
    sigma = [0] * m
    for k in range(m):
        sigma[pi[k]] = k
    r = [nonzero() for _ in range(m)]
    alpha = nonzero()
    eps = [nonzero() for _ in range(m)]
    u = [add(mul(r[j], h), g[sigma[j]]) for j in range(m)]
    a_t = lin([(alpha, h), *zip(eps, g, strict=True)])
    seed, x = shuffle_seed(context, key, inp, out, u)
    xp = [x[pi[k]] for k in range(m)]
    beta = [nonzero() for _ in range(m)]
    beta_t = nonzero()
    gamma, delta, phi = nonzero(), nonzero(), nonzero()
    chain, d, previous = [], 0, gu
    for k in range(m):
        chain.append(lin([(beta[k], h), (xp[k], previous)]))
        d = (beta[k] + xp[k] * d) % L
        previous = chain[-1]
    before = [gu, *chain[:-1]]
    w = chain_weights(seed, chain)
    q = {
        "u": u,
        "b": chain,
        "a_t": a_t,
        "b_t": lin([(beta_t, h), *(((w[k] * eps[k]) % L, before[k]) for k in range(m))]),
        "c_t": mul(gamma, h),
        "d_t": mul(delta, h),
        "f_t": lin([*zip(eps, out, strict=True), *(((-phi * x[j]) % L, inp[j]) for j in range(m))]),
        "e_t": mul_base(phi),
    }
    v = shuffle_v(seed, q)
    q["k_a"] = scalar(alpha + v * sum(x[j] * r[j] for j in range(m)))
    q["k_b"] = scalar(beta_t + v * sum(w[k] * beta[k] for k in range(m)))
    q["k_c"] = scalar(gamma + v * sum(r))
    q["k_d"] = scalar(delta + v * d)
    q["k_e"] = [scalar(eps[k] + v * xp[k]) for k in range(m)]
    q["k_s"] = scalar(phi + v * e)
    return [q[name] for name in SHUFFLE_PROOF_FIELDS]


def verify_shuffle(
    game: bytes,
    round_no: int,
    shuffle_pass: int,
    seat: int,
    binding: bytes,
    key: bytes,
    inp: list[bytes],
    out: list[bytes],
    proof: list,
) -> None:
    """§3.5, the verifier's side, its steps in order; raises AssertionError."""
    m = len(inp)
    # 1. the form
    assert len(out) == m and len(set(out)) == m and all(valid(p) for p in out)
    assert len(proof) == len(SHUFFLE_PROOF_FIELDS)
    q = dict(zip(SHUFFLE_PROOF_FIELDS, proof, strict=True))
    assert all(len(q[name]) == m for name in ("u", "b", "k_e")), "m items each"
    k_a, k_b, k_c, k_d, k_s = (canonical_scalar(q[n]) for n in ("k_a", "k_b", "k_c", "k_d", "k_s"))
    k_e = [canonical_scalar(k) for k in q["k_e"]]
    # 2. every point valid
    singles = [q[n] for n in ("a_t", "b_t", "c_t", "d_t", "f_t", "e_t")]
    assert all(valid(p) for p in (*q["u"], *q["b"], *singles))
    # 3. the challenges
    context = shuffle_context(game, round_no, shuffle_pass, seat, binding)
    seed, x = shuffle_seed(context, key, inp, out, q["u"])
    w = chain_weights(seed, q["b"])
    v = shuffle_v(seed, q)
    h, gu = B, generator(b"u")
    g = [generator(b"g" + u16(i)) for i in range(m)]

    def total(points: list[bytes]) -> bytes:
        return lin([(1, p) for p in points])

    # 4. key
    assert q["e_t"] == lin([(k_s, B), (-v % L, key)]), "key"
    # 5. columns
    assert q["c_t"] == lin([(k_c, h), (-v % L, total(q["u"])), (v, total(g))]), "columns"
    # 6. commitment
    folded = [((-v * x[j]) % L, q["u"][j]) for j in range(m)]
    assert q["a_t"] == lin([(k_a, h), *zip(k_e, g, strict=True), *folded]), "commitment"
    # 7. chain, its m links joined by w
    before = [gu, *q["b"][:-1]]
    links = [((w[k] * k_e[k]) % L, before[k]) for k in range(m)]
    links += [((-v * w[k]) % L, q["b"][k]) for k in range(m)]
    assert q["b_t"] == lin([(k_b, h), *links]), "chain"
    # 8. product
    product = 1
    for x_j in x:
        product = product * x_j % L
    assert q["d_t"] == lin([(k_d, h), (v * product % L, gu), (-v % L, q["b"][-1])]), "product"
    # 9. cards
    cards = [*zip(k_e, out, strict=True), *(((-k_s * x[j]) % L, inp[j]) for j in range(m))]
    assert q["f_t"] == lin(cards), "cards"


def shares_context(
    game: bytes, round_no: int, shuffle_pass: int, sender: int, items: list[tuple[int, int]]
) -> bytes:
    """§3.4: the context of one shares proof (its items' positions and recipients)."""
    listed = b"".join(u16(position) + u8(recipient) for position, recipient in items)
    return game + u32(round_no) + u32(shuffle_pass) + u8(sender) + u16(len(items)) + listed


def verify_shares(
    context: bytes,
    key: bytes,
    xs: list[bytes],
    outs: list[bytes],
    c_bytes: bytes,
    s_bytes: bytes,
) -> tuple[bytes, list[int], bytes, bytes]:
    """§3.4, the verifier's side: every outs[i] = e^-1 * xs[i] under E = e*B, by one
    DLEQ over the weighted sums; returns the seed, the weights and the two sums."""
    c, s = canonical_scalar(c_bytes), canonical_scalar(s_bytes)
    assert len(xs) == len(outs) >= 1
    assert all(valid(out) for out in outs)
    material = b"p2p-rommy/v6/shares-seed\x00" + context + key
    seed = hashlib.sha256(
        material + b"".join(x + out for x, out in zip(xs, outs, strict=True))
    ).digest()
    weights = [1] + [hs(b"p2p-rommy/v6/shares-weight\x00", seed, u16(i)) for i in range(1, len(xs))]
    o = lin(list(zip(weights, outs, strict=True)))
    x = lin(list(zip(weights, xs, strict=True)))
    a1 = add(mul_base(s), mul(c, key))
    a2 = add(mul(s, o), mul(c, x))
    again = hs(b"p2p-rommy/v6/shares-dleq\x00", seed, B, o, key, x, a1, a2)
    assert again == c, "shares proof does not verify"
    return seed, weights, o, x


@dataclass
class Pass:
    base: int
    size: int
    labels: list[bytes]
    output: list[bytes] = field(default_factory=list)
    shuffles: list[tuple[int, bytes, list[bytes], list[bytes]]] = field(default_factory=list)
    """(seat, key, input, output) in shuffle order."""


@dataclass
class DeckRound:
    """One round's deck protocol as a bystander follows it (§3.3, §3.6, §3.8)."""

    game: bytes
    round_no: int
    players: int
    recycled: list[list[int]]
    """Each rebuild's recycled card ids, label order (given: it comes from the rules)."""
    commits: dict[int, tuple[bytes, bytes, bytes]] = field(default_factory=dict)
    """seat -> (commitment, pass-0 key, body)"""
    context: bytes = bytes(32)
    binding: bytes = b""
    passes: list[Pass] = field(default_factory=list)
    chains: dict[int, bytes] = field(default_factory=dict)
    public: set[int] = field(default_factory=set)
    """Positions some seat stripped for everyone (recipient 255)."""
    seeds: dict[int, bytes] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return len(self.seeds) == self.players

    def take(self, kind: str, seat: int, body_bytes: bytes, body: dict) -> None:
        assert body["game"] == self.game and body["round"] == self.round_no
        assert body["seat"] == seat, "a deck message's seat is its signer's"
        if kind == "deck/commit":
            self.commits[seat] = (body["commitment"], body["key"], body_bytes)
            if len(self.commits) == self.players:
                bodies = b"".join(self.commits[s][2] for s in range(self.players))
                self.context = hashlib.sha256(
                    b"p2p-rommy/v1/deck-context\x00" + self.game + u32(self.round_no) + bodies
                ).digest()
                self.binding = hashlib.sha256(
                    b"p2p-rommy/v1/round-binding\x00"
                    + b"".join(self.commits[s][0] for s in range(self.players))
                ).digest()
            return
        assert body["prev"] == self.context, f"{kind} from seat {seat}: prev is not the context"
        if kind == "deck/shuffle":
            self._shuffle(seat, body)
        elif kind == "deck/shares":
            self._shares(seat, body)
        else:
            assert kind == "deck/seed"
            assert commitment(self.game, self.round_no, seat, body["seed"]) == self.commits[seat][0]
            self.seeds[seat] = body["seed"]
            return  # seeds do not extend the context
        self.context = hashlib.sha256(self.context + body_bytes).digest()

    def _shuffle(self, seat: int, body: dict) -> None:
        u, out = body["pass"], body["deck"]
        if u == len(self.passes):  # the pass's first shuffler starts from the labels
            base = self.passes[-1].base + self.passes[-1].size if self.passes else 0
            labels = [card_point(self.game, self.round_no, u, i) for i in range(len(out))]
            self.passes.append(Pass(base, len(out), labels))
        current = self.passes[u]
        if u == 0:
            assert body["key"] == self.commits[seat][1], "pass 0 uses the committed key"
        inp = current.output or current.labels
        verify_shuffle(
            self.game,
            self.round_no,
            u,
            seat,
            self.binding,
            body["key"],
            inp,
            out,
            body["proof"],
        )
        current.shuffles.append((seat, body["key"], inp, out))
        current.output = out

    def _pass_of(self, position: int) -> tuple[int, Pass]:
        for u, p in enumerate(self.passes):
            if p.base <= position < p.base + p.size:
                return u, p
        raise AssertionError(f"no pass holds slot {position}")

    def _shares(self, seat: int, body: dict) -> None:
        by_pass: dict[int, list[tuple[int, int, bytes, bytes]]] = {}
        for position, recipient, point in body["items"]:
            u, p = self._pass_of(position)
            x = self.chains.get(position, p.output[position - p.base])
            by_pass.setdefault(u, []).append((position, recipient, x, point))
        assert len(body["proofs"]) == len(by_pass), "one proof for each pass, ascending"
        for u, (c, s) in zip(sorted(by_pass), body["proofs"], strict=True):
            items = by_pass[u]
            key = next(k for who, k, _, _ in self.passes[u].shuffles if who == seat)
            context = shares_context(
                self.game, self.round_no, u, seat, [(pos, rec) for pos, rec, _, _ in items]
            )
            verify_shares(
                context, key, [x for _, _, x, _ in items], [o for _, _, _, o in items], c, s
            )
        for position, recipient, point in body["items"]:
            self.chains[position] = point
            if recipient == ALL:
                self.public.add(position)

    def audit(self) -> dict[int, int]:
        """§3.8 with every seed: keys, permutations and shuffles re-derived; every slot's
        card learned by removing all layers. Returns slot -> card id."""
        assert self.done
        cards: dict[int, int] = {}
        for u, p in enumerate(self.passes):
            scalars = {}
            for who, key, inp, out in p.shuffles:
                e = round_scalar(self.game, self.round_no, who, u, self.seeds[who])
                assert mul_base(e) == key, f"seat {who}'s pass-{u} key is not its seed's"
                pi = permutation(self.game, self.round_no, who, u, p.size, self.seeds[who])
                assert [mul(e, inp[pi[k]]) for k in range(p.size)] == out
                scalars[who] = e
            label_of = {point: i for i, point in enumerate(p.labels)}
            for k, x in enumerate(p.output):
                for e in scalars.values():
                    x = mul(pow(e, -1, L), x)
                label = label_of[x]
                cards[p.base + k] = label if u == 0 else self.recycled[u - 1][label]
                if p.base + k in self.public:  # opened to everyone: the chain ends on it
                    assert self.chains[p.base + k] == p.labels[label]
        return cards
