"""The shuffle argument: ``out[k] = e * inp[pi[k]]`` for ``E = e*B``, in O(m).

Theory of operation (protocol/SPEC.md §3.5; the adaptation and its proof of security
for a reviewer: docs/shuffle-argument.md). This is Terelius and Wikström's proof of a
shuffle ("Proofs of Restricted Shuffles", 2010), in the form of Wikström's
Verificatum verifier specification, with the re-encryption part replaced by the
deck's relation (one secret scalar on every card):

1. The prover commits to its permutation matrix column by column with Pedersen
   commitments ``u[j] = r[j]*H + G[sigma[j]]`` (``sigma = pi^-1``; ``H = B``, the
   group's base, and ``G[0..m-1]``, ``U`` from `hash_to_point`, so nobody knows a
   relation between them; ``H = B`` makes every multiple of ``H`` libsodium's fast
   fixed-base multiplication, since v6).
2. A challenge vector ``x`` (Fiat-Shamir over the context, both decks, ``E`` and
   ``u``). ``sum x[j]*u[j]`` is then a commitment to ``x' = x`` permuted
   (``x'[k] = x[pi[k]]``).
3. The prover shows, in one sigma protocol with challenge ``v``: the columns sum to
   the all-ones vector (so the committed matrix maps 1 to 1); ``prod x' = prod x``
   through a chain ``b[k] = beta*H + x'[k]*b[k-1]`` from ``U`` (by Schwartz-Zippel,
   with the former, the matrix is a permutation matrix), its ``m`` links shown at once
   with weights ``w`` hashed from the chain before the announcements (since v6: one
   announcement ``b_t`` and one response ``k_b`` instead of ``m`` each); and
   ``sum x'[k]*out[k] = e * sum x[j]*inp[j]`` with ``e*B = E`` (so each output is
   ``e`` times the input the matrix maps to it).

The verifier checks six kinds of equation, each ``v * statement + announcement =
response`` (the chain's m links at once, as one weighted sum), in about 5m
multiplications; the prover needs about 3m on arbitrary points and 2m on ``B``
(m of each before the deck arrives).
Identity points have no encoding: a sum that is the identity fails (only a forged
proof makes one; an honest prover, with probability about 2^-250, and then it draws
again). Work over the deck is split over the cores by `parallel.each`, with every
random value drawn first, in order, so a proof is the same bytes on one core or many.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from p2p_rommy.deck import group, parallel
from p2p_rommy.deck.derive import u16
from p2p_rommy.i18n import N_
from p2p_rommy.wire.identity import Entropy

GENERATOR_DOMAIN = b"p2p-rommy/v4/shuffle-generator\x00"
CHALLENGE_X_DOMAIN = b"p2p-rommy/v4/shuffle-x\x00"
CHALLENGE_XJ_DOMAIN = b"p2p-rommy/v4/shuffle-xj\x00"
CHALLENGE_W_DOMAIN = b"p2p-rommy/v6/shuffle-w\x00"
CHALLENGE_V_DOMAIN = b"p2p-rommy/v6/shuffle-v\x00"
BATCH_DOMAIN = b"p2p-rommy/v4/shuffle-batch\x00"
COMBINE_DOMAIN = b"p2p-rommy/v4/shuffle-combine\x00"
DECK_DOMAIN = b"p2p-rommy/v1/deck\x00"

MAX_CARDS = 256
"""Generators exist for decks up to this size (a `deck/shuffle` carries at most 256)."""

_ZERO = group.scalar_from_int(0)


class ArgumentError(ValueError):
    """A shuffle argument that does not verify."""


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """The argument's messages, named as in SPEC §3.5: commitments `u`, chain `b`, the
    announcements `a_t`, `b_t`, `c_t`, `d_t`, `f_t`, `e_t`, and the responses `k_*`."""

    u: tuple[bytes, ...]
    b: tuple[bytes, ...]
    a_t: bytes
    b_t: bytes
    c_t: bytes
    d_t: bytes
    f_t: bytes
    e_t: bytes
    k_a: bytes
    k_b: bytes
    k_c: bytes
    k_d: bytes
    k_e: tuple[bytes, ...]
    k_s: bytes

    def lists(self) -> tuple[tuple[bytes, ...], ...]:
        """The per-card lists, each as long as the deck."""
        return (self.u, self.b, self.k_e)

    def singles(self) -> tuple[bytes, ...]:
        """Every field that is one point or one scalar, in the proof's order."""
        return (
            self.a_t,
            self.b_t,
            self.c_t,
            self.d_t,
            self.f_t,
            self.e_t,
            self.k_a,
            self.k_b,
            self.k_c,
            self.k_d,
            self.k_s,
        )

    def scalars(self) -> tuple[bytes, ...]:
        return (self.k_a, self.k_b, self.k_c, self.k_d, self.k_s, *self.k_e)

    def points(self) -> tuple[bytes, ...]:
        single = (self.a_t, self.b_t, self.c_t, self.d_t, self.f_t, self.e_t)
        return (*self.u, *self.b, *single)


# --- generators and small helpers ----------------------------------------------------


@cache
def _generator(label: bytes) -> tuple[bytes, group.Decoded]:
    point = group.hash_to_point(GENERATOR_DOMAIN + label)  # valid by construction
    return point, point


def generator_h() -> group.Decoded:
    """``H = B``, the group's base (since v6): its multiples are fixed-base ones."""
    return group.BASE


def generator_u() -> group.Decoded:
    """``U``, where the product chain starts (label ``"u"``)."""
    return _generator(b"u")[1]


def _generator_points(size: int) -> list[tuple[bytes, group.Decoded]]:
    if not 0 < size <= MAX_CARDS:
        raise ArgumentError(N_("no generators for a deck of {size} cards").format(size=size))
    return [_generator(b"g" + u16(i)) for i in range(size)]


def generators(size: int) -> list[group.Decoded]:
    """``G[i]`` (label ``"g" || u16 i``) for ``i < size``."""
    return [decoded for _, decoded in _generator_points(size)]


_ONE = group.scalar_from_int(1)


def _add_scalars(a: bytes, b: bytes) -> bytes:
    return group.scalar_sub(a, group.scalar_sub(_ZERO, b))


def _sum(points: Sequence[bytes]) -> group.Decoded:
    """The sum of encoded points (`GroupError` if it is the identity)."""
    return group.sum_all(group.decode_all(points))


def _multi(scalars: Sequence[bytes], points: Sequence[group.Decoded]) -> group.Decoded:
    """``sum scalars[i] * points[i]``, split over the cores."""
    count = len(points)
    size = -(-count // max(1, parallel.CORES))
    starts = range(0, count, size)

    def partial(start: int) -> group.Decoded:
        return group.mul_sum(scalars[start : start + size], points[start : start + size])

    parts = parallel.each(partial, starts)
    return parts[0] if len(parts) == 1 else _sum(parts)


def _neg(scalar: bytes) -> bytes:
    return group.scalar_sub(_ZERO, scalar)


def _each(function: Callable[[int], bytes], count: int) -> list[bytes]:
    return parallel.each(function, range(count))


def _nonzero(entropy: Entropy) -> bytes:
    while True:
        scalar = group.scalar_reduce(entropy(64))
        if group.is_scalar(scalar):
            return scalar


def deck_digest(points: Sequence[bytes]) -> bytes:
    return hashlib.sha256(DECK_DOMAIN + b"".join(points)).digest()


def challenge_x(
    context: bytes, key: bytes, inp: Sequence[bytes], out: Sequence[bytes], u: Sequence[bytes]
) -> tuple[bytes, list[bytes]]:
    """The seed of the first challenge and the vector ``x`` it gives (SPEC §3.5)."""
    seed = hashlib.sha256(
        CHALLENGE_X_DOMAIN
        + context
        + u16(len(inp))
        + key
        + deck_digest(inp)
        + deck_digest(out)
        + b"".join(u)
    ).digest()
    return seed, [group.hash_to_scalar(CHALLENGE_XJ_DOMAIN, seed, u16(j)) for j in range(len(u))]


def chain_weights(seed: bytes, chain: Sequence[bytes]) -> list[bytes]:
    """The weights ``w`` that join the chain's ``m`` links into one (SPEC §3.5): a hash
    of the first seed and the whole chain, so drawn after ``b`` and before the
    announcements."""
    seed_w = hashlib.sha256(CHALLENGE_W_DOMAIN + seed + b"".join(chain)).digest()
    return [group.hash_to_scalar(CHALLENGE_W_DOMAIN, seed_w, u16(k)) for k in range(len(chain))]


def challenge_v(seed: bytes, proof: ShuffleProof) -> bytes:
    """The sigma protocol's challenge over the first seed, the chain and every
    announcement."""
    return group.hash_to_scalar(
        CHALLENGE_V_DOMAIN,
        seed,
        *proof.b,
        proof.a_t,
        proof.b_t,
        proof.c_t,
        proof.d_t,
        proof.f_t,
        proof.e_t,
    )


def _product(scalars: Sequence[bytes]) -> bytes:
    total = _ONE
    for scalar in scalars:
        total = group.scalar_mul(total, scalar)
    return total


# --- the prover --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Commitment:
    """What the prover computes from its permutation alone, before it sees a deck: the
    commitments ``u`` and the announcement ``a_t`` with their secrets."""

    permutation: tuple[int, ...]
    r: tuple[bytes, ...]
    u: tuple[bytes, ...]
    alpha: bytes
    epsilon: tuple[bytes, ...]
    a_t: bytes


def commit_permutation(permutation: Sequence[int], entropy: Entropy) -> Commitment:
    """Step 1 and the announcement ``a_t``: ``2m + 1`` multiplications, no deck needed.

    Draws, in order: ``r[0..m-1]``, ``alpha``, ``epsilon[0..m-1]``."""
    size = len(permutation)
    g = _generator_points(size)
    r = tuple(_nonzero(entropy) for _ in range(size))
    alpha = _nonzero(entropy)
    epsilon = tuple(_nonzero(entropy) for _ in range(size))
    sigma = [0] * size
    for k, j in enumerate(permutation):
        sigma[j] = k
    u = _each(lambda j: group.add(group.mul_base(r[j]), g[sigma[j]][1]), size)
    a_t = group.add(group.mul_base(alpha), _multi(epsilon, [p for _, p in g]))
    return Commitment(tuple(permutation), r, tuple(u), alpha, epsilon, a_t)


def prove(
    context: bytes,
    scalar: bytes,
    key: bytes,
    commitment: Commitment,
    inp: Sequence[group.Decoded],
    inp_bytes: Sequence[bytes],
    out_bytes: Sequence[bytes],
    entropy: Entropy,
) -> ShuffleProof:
    """Steps 2 and 3 for ``out = shuffle(scalar, commitment.permutation, inp)``.

    Draws, in order: ``beta[0..m-1]`` (the chain's blinds), ``beta_t``, ``gamma``,
    ``delta``, ``phi``."""
    pi, size = commitment.permutation, len(commitment.permutation)
    base_u = generator_u()
    seed, x = challenge_x(context, key, inp_bytes, out_bytes, commitment.u)
    xp = [x[pi[k]] for k in range(size)]
    beta = [_nonzero(entropy) for _ in range(size)]
    beta_t = _nonzero(entropy)
    gamma, delta, phi = _nonzero(entropy), _nonzero(entropy), _nonzero(entropy)
    # b[k] = d[k]*H + p[k]*U, d[k] = beta[k] + x'[k]*d[k-1], p[k] = x'[0]*...*x'[k]:
    # on the fixed bases alone (H = B, fixed-base), so no link waits for the one before
    d, p = [_ZERO] * size, [_ONE] * size
    d_before, p_before = _ZERO, _ONE
    for k in range(size):
        d[k] = _add_scalars(beta[k], group.scalar_mul(xp[k], d_before))
        p[k] = group.scalar_mul(xp[k], p_before)
        d_before, p_before = d[k], p[k]
    eps = commitment.epsilon
    chain = _each(lambda k: group.add(group.mul_base(d[k]), group.mul(p[k], base_u)), size)
    # b_t = beta_t*H + sum w[k]*eps[k]*b[k-1], b[-1] = U: two multiplications
    w = chain_weights(seed, chain)
    h_part, u_part = beta_t, _ZERO
    for k in range(size):
        weight = group.scalar_mul(w[k], eps[k])
        if k:
            h_part = _add_scalars(h_part, group.scalar_mul(weight, d[k - 1]))
        u_part = _add_scalars(u_part, group.scalar_mul(weight, p[k - 1]) if k else weight)
    b_t = group.add(group.mul_base(h_part), group.mul(u_part, base_u))
    # f_t = sum eps[k]*out[k] - phi*sum x[j]*inp[j] = sum (e*eps[sigma[j]] - phi*x[j])*inp[j]
    sigma = [0] * size
    for k, j in enumerate(pi):
        sigma[j] = k
    minus_phi = _neg(phi)
    f_t = _multi(
        [
            _add_scalars(group.scalar_mul(scalar, eps[sigma[j]]), group.scalar_mul(minus_phi, x[j]))
            for j in range(size)
        ],
        inp,
    )
    unanswered = ShuffleProof(
        commitment.u,
        tuple(chain),
        commitment.a_t,
        b_t,
        group.mul_base(gamma),
        group.mul_base(delta),
        f_t,
        group.mul_base(phi),
        _ZERO,
        _ZERO,
        _ZERO,
        _ZERO,
        (),
        _ZERO,
    )
    v = challenge_v(seed, unanswered)

    def answer(nonce: bytes, secret: bytes) -> bytes:
        return _add_scalars(nonce, group.scalar_mul(v, secret))

    r_folded = _ZERO
    for x_j, r_j in zip(x, commitment.r, strict=True):
        r_folded = _add_scalars(r_folded, group.scalar_mul(x_j, r_j))
    r_sum = _ZERO
    for r_j in commitment.r:
        r_sum = _add_scalars(r_sum, r_j)
    beta_folded = _ZERO
    for w_k, beta_k in zip(w, beta, strict=True):
        beta_folded = _add_scalars(beta_folded, group.scalar_mul(w_k, beta_k))
    return ShuffleProof(
        unanswered.u,
        unanswered.b,
        unanswered.a_t,
        unanswered.b_t,
        unanswered.c_t,
        unanswered.d_t,
        unanswered.f_t,
        unanswered.e_t,
        answer(commitment.alpha, r_folded),
        answer(beta_t, beta_folded),
        answer(gamma, r_sum),
        answer(delta, d[-1]),
        tuple(answer(eps[k], xp[k]) for k in range(size)),
        answer(phi, scalar),
    )


# --- the verifier ------------------------------------------------------------------


def check_form(size: int, proof: ShuffleProof) -> None:
    """Every per-card list has `size` items and every response is a canonical non-zero
    scalar (points are checked when they are decoded, in `verify`)."""
    if any(len(items) != size for items in proof.lists()):
        raise ArgumentError(
            N_("the shuffle proof's lists do not all have {size} items").format(size=size)
        )
    if not all(group.is_scalar(s) for s in proof.scalars()):
        raise ArgumentError(N_("a shuffle proof response is not a canonical non-zero scalar"))


def verify(
    context: bytes,
    key: bytes,
    inp: Sequence[bytes],
    inp_bytes: Sequence[bytes],
    out: Sequence[bytes],
    out_bytes: Sequence[bytes],
    proof: ShuffleProof,
) -> None:
    """Raise `ArgumentError` unless `proof` shows ``out[k] = e*inp[pi[k]]``, ``E = e*B``.

    The proof's form is checked here, and every point (the key, both decks, the
    proof's) by the multiplication that uses it."""
    size = len(inp)
    check_form(size, proof)
    try:
        _verify(context, key, inp, inp_bytes, out, out_bytes, proof)
    except group.GroupError:
        raise ArgumentError(
            N_("a shuffle proof point is invalid or a sum is the identity")
        ) from None


def _verify(
    context: bytes,
    key: bytes,
    inp: Sequence[bytes],
    inp_bytes: Sequence[bytes],
    out: Sequence[bytes],
    out_bytes: Sequence[bytes],
    proof: ShuffleProof,
) -> None:
    """The six equations, with every point of the proof and of `out` checked by the
    multiplication that uses it (libsodium checks each point it multiplies: a separate
    check first would pay for it twice). Columns and commitment are one equation,
    chain and product another, each a combination with weights the prover cannot
    choose (SPEC §3.5); the multiples of ``B`` (the key's and ``H = B``'s) are fast
    fixed-base ones."""
    size = len(inp)
    g, base_u = generators(size), generator_u()
    seed, x = challenge_x(context, key, inp_bytes, out_bytes, proof.u)
    v = challenge_v(seed, proof)

    def refuse(what: str) -> ArgumentError:
        return ArgumentError(N_("the shuffle proof does not verify ({what})").format(what=what))

    minus_v = _neg(v)
    # (1) the key: e_t = k_s*B - v*E
    if proof.e_t != group.add(group.mul_base(proof.k_s), group.mul(minus_v, key)):
        raise refuse(N_("key"))
    w, rho = chain_weights(seed, proof.b), _combination_weights(v, proof)
    # (2) + rho[0]*(3), columns and the permuted challenges:
    # c_t + rho0*a_t = (k_c + rho0*k_a)*H + sum (v + rho0*k_e[k])*G[k]
    #                  + sum (-v*(1 + rho0*x[j]))*u[j]
    rho0 = rho[0]
    announced = group.add(group.decode(proof.c_t), group.mul(rho0, proof.a_t))
    rebuilt = group.add(
        group.mul_base(_add_scalars(proof.k_c, group.scalar_mul(rho0, proof.k_a))),
        _multi(
            [
                *(_add_scalars(v, group.scalar_mul(rho0, k_e)) for k_e in proof.k_e),
                *(
                    group.scalar_mul(minus_v, _add_scalars(_ONE, group.scalar_mul(rho0, x_j)))
                    for x_j in x
                ),
            ],
            [*g, *_unchecked(proof.u)],
        ),
    )
    if announced != rebuilt:
        raise refuse(N_("commitment"))
    # (4) + rho[1]*(5), the chain's m links joined by w, and the product:
    # b_t + rho1*d_t = (k_b + rho1*k_d)*H + (w[0]*k_e[0] + rho1*v*prod(x))*U
    #     + sum_k (w[k+1]*k_e[k+1] - v*w[k])*b[k] - rho1*v*b[m-1]   (w[m]*k_e[m] = 0)
    rho1 = rho[1]
    h_weight = _add_scalars(proof.k_b, group.scalar_mul(rho1, proof.k_d))
    u_weight = _add_scalars(
        group.scalar_mul(w[0], proof.k_e[0]),
        group.scalar_mul(rho1, group.scalar_mul(v, _product(x))),
    )
    b_weights = [
        _add_scalars(
            group.scalar_mul(w[k + 1], proof.k_e[k + 1]) if k + 1 < size else _ZERO,
            group.scalar_mul(minus_v, w[k] if k + 1 < size else _add_scalars(w[k], rho1)),
        )
        for k in range(size)
    ]
    chain_announced = group.add(group.decode(proof.b_t), group.mul(rho1, proof.d_t))
    chain_rebuilt = group.add(
        group.mul_base(h_weight),
        _multi([u_weight, *b_weights], [base_u, *_unchecked(proof.b)]),
    )
    if chain_announced != chain_rebuilt:
        raise refuse(N_("product chain"))
    # (6) the cards: f_t = sum(k_e[k]*out[k]) - sum((k_s*x[j])*inp[j])
    minus_s = _neg(proof.k_s)
    folded = [group.scalar_mul(minus_s, x_j) for x_j in x]
    if proof.f_t != _multi([*proof.k_e, *folded], [*_unchecked(out), *_unchecked(inp)]):
        raise refuse(N_("cards"))


def _combination_weights(v: bytes, proof: ShuffleProof) -> tuple[bytes, bytes]:
    """The weights joining columns to commitment and product to chain: from `v` (which
    hashes every point of the proof) and every response, so fixed once the proof is."""
    seed = hashlib.sha256(
        BATCH_DOMAIN
        + v
        + proof.k_a
        + proof.k_c
        + proof.k_d
        + proof.k_s
        + proof.k_b
        + b"".join(proof.k_e)
    ).digest()
    return (
        group.hash_to_scalar(COMBINE_DOMAIN, seed, b"\x00"),
        group.hash_to_scalar(COMBINE_DOMAIN, seed, b"\x01"),
    )


def _unchecked(points: Sequence[bytes]) -> list[group.Decoded]:
    """Points that only ever go into a multiplication, which checks them itself."""
    return [group.Decoded(point) for point in points]
