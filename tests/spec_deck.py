"""SPEC §3 read by a second implementer: the deck protocol's derivations, proofs and
audit written from the SPEC's text alone, over libsecp256k1 (coincurve's bindings for
the point arithmetic only) and hashlib — not the code under test.
`tests/test_conformance.py` replays a whole recorded round through it and re-derives
every ACK's log-state hash (§4.4).

Integers are Python ints mod n; points are 33-byte SEC1 compressed encodings, and
whether bytes are a point is decided here from the curve equation (§3.1), not by the
library."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from coincurve import PublicKey

P = 2**256 - 2**32 - 977
"""The field prime of secp256k1."""
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""Its group order."""
ALL = 255


def u8(v: int) -> bytes:
    return v.to_bytes(1, "big")


def u16(v: int) -> bytes:
    return v.to_bytes(2, "big")


def u32(v: int) -> bytes:
    return v.to_bytes(4, "big")


def scalar(v: int) -> bytes:
    return (v % N).to_bytes(32, "big")


def hs(*parts: bytes) -> int:
    """§3.1: SHA-512 of x as a big-endian integer, reduced mod n."""
    return int.from_bytes(hashlib.sha512(b"".join(parts)).digest(), "big") % N


def valid(point: bytes) -> bool:
    """§3.1: 33 bytes, 0x02 or 0x03, then an x below p for which x^3 + 7 is a square
    mod p (Euler's criterion; never 0 on this curve)."""
    if len(point) != 33 or point[0] not in (2, 3):
        return False
    x = int.from_bytes(point[1:], "big")
    return x < P and pow((x**3 + 7) % P, (P - 1) // 2, P) == 1


def mul(k: int, point: bytes) -> bytes:
    assert valid(point), "a multiplication's point must be valid"
    return PublicKey(point).multiply(scalar(k)).format()


def mul_base(k: int) -> bytes:
    return PublicKey.from_secret(scalar(k)).format()


def add(p: bytes, q: bytes) -> bytes:
    return PublicKey.combine_keys([PublicKey(p), PublicKey(q)]).format()


def canonical_scalar(data: bytes) -> int:
    value = int.from_bytes(data, "big")
    assert len(data) == 32 and 0 < value < N, "a scalar must be canonical and non-zero"
    return value


B = bytes.fromhex("0279BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798")
"""§3.1: the standard generator G, compressed."""


def hash_to_point(data: bytes) -> bytes:
    """§3.1: the first c = 0, 1, ... for which 0x02 || SHA-256(domain || data || u8 c)
    is a point."""
    for c in range(256):
        candidate = b"\x02" + hashlib.sha256(b"p2p-rommy/v1/point\x00" + data + u8(c)).digest()
        if valid(candidate):
            return candidate
    raise AssertionError("no point in 256 tries")


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
    """§3.5: Gen(label)."""
    return hash_to_point(b"p2p-rommy/v4/shuffle-generator\x00" + label)


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
        b"p2p-rommy/v4/shuffle-v\x00",
        seed,
        *q["b"],
        q["a_t"],
        *q["b_t"],
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
            value = int.from_bytes(draw(), "big") % N
            if value:
                return value

    h, gu = generator(b"h"), generator(b"u")
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
    beta_t = [nonzero() for _ in range(m)]
    gamma, delta, phi = nonzero(), nonzero(), nonzero()
    chain, d, previous = [], 0, gu
    for k in range(m):
        chain.append(lin([(beta[k], h), (xp[k], previous)]))
        d = (beta[k] + xp[k] * d) % N
        previous = chain[-1]
    before = [gu, *chain[:-1]]
    q = {
        "u": u,
        "b": chain,
        "a_t": a_t,
        "b_t": [lin([(beta_t[k], h), (eps[k], before[k])]) for k in range(m)],
        "c_t": mul(gamma, h),
        "d_t": mul(delta, h),
        "f_t": lin([*zip(eps, out, strict=True), *(((-phi * x[j]) % N, inp[j]) for j in range(m))]),
        "e_t": mul_base(phi),
    }
    v = shuffle_v(seed, q)
    q["k_a"] = scalar(alpha + v * sum(x[j] * r[j] for j in range(m)))
    q["k_b"] = [scalar(beta_t[k] + v * beta[k]) for k in range(m)]
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
    assert all(len(q[name]) == m for name in ("u", "b", "b_t", "k_b", "k_e")), "m items each"
    k_a, k_c, k_d, k_s = (canonical_scalar(q[n]) for n in ("k_a", "k_c", "k_d", "k_s"))
    k_b = [canonical_scalar(k) for k in q["k_b"]]
    k_e = [canonical_scalar(k) for k in q["k_e"]]
    # 2. every point valid
    singles = [q[n] for n in ("a_t", "c_t", "d_t", "f_t", "e_t")]
    assert all(valid(p) for p in (*q["u"], *q["b"], *q["b_t"], *singles))
    # 3. the challenges
    context = shuffle_context(game, round_no, shuffle_pass, seat, binding)
    seed, x = shuffle_seed(context, key, inp, out, q["u"])
    v = shuffle_v(seed, q)
    h, gu = generator(b"h"), generator(b"u")
    g = [generator(b"g" + u16(i)) for i in range(m)]

    def total(points: list[bytes]) -> bytes:
        return lin([(1, p) for p in points])

    # 4. key
    assert q["e_t"] == lin([(k_s, B), (-v % N, key)]), "key"
    # 5. columns
    assert q["c_t"] == lin([(k_c, h), (-v % N, total(q["u"])), (v, total(g))]), "columns"
    # 6. commitment
    folded = [((-v * x[j]) % N, q["u"][j]) for j in range(m)]
    assert q["a_t"] == lin([(k_a, h), *zip(k_e, g, strict=True), *folded]), "commitment"
    # 7. chain
    before = [gu, *q["b"][:-1]]
    for k in range(m):
        again = lin([(k_b[k], h), (k_e[k], before[k]), (-v % N, q["b"][k])])
        assert q["b_t"][k] == again, f"chain link {k}"
    # 8. product
    product = 1
    for x_j in x:
        product = product * x_j % N
    assert q["d_t"] == lin([(k_d, h), (v * product % N, gu), (-v % N, q["b"][-1])]), "product"
    # 9. cards
    cards = [*zip(k_e, out, strict=True), *(((-k_s * x[j]) % N, inp[j]) for j in range(m))]
    assert q["f_t"] == lin(cards), "cards"


def verify_share(
    context: bytes, key: bytes, x: bytes, out: bytes, c_bytes: bytes, s_bytes: bytes
) -> None:
    """§3.4, the verifier's side: out = e^-1 * x under E = e*B."""
    c, s = canonical_scalar(c_bytes), canonical_scalar(s_bytes)
    a1 = add(mul_base(s), mul(c, key))
    a2 = add(mul(s, out), mul(c, x))
    again = hs(b"p2p-rommy/v1/dleq\x00", context, B, out, key, x, a1, a2)
    assert again == c, "share proof does not verify"


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
        for position, recipient, point, c, s in body["items"]:
            u, p = self._pass_of(position)
            x = self.chains.get(position, p.output[position - p.base])
            key = next(k for who, k, _, _ in p.shuffles if who == seat)
            context = (
                self.game + u32(self.round_no) + u32(u) + u16(position) + u8(seat) + u8(recipient)
            )
            assert valid(point)
            verify_share(context, key, x, point, c, s)
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
                    x = mul(pow(e, -1, N), x)
                label = label_of[x]
                cards[p.base + k] = label if u == 0 else self.recycled[u - 1][label]
                if p.base + k in self.public:  # opened to everyone: the chain ends on it
                    assert self.chains[p.base + k] == p.labels[label]
        return cards
