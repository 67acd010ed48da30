"""Exact answers, as Fractions, where the maths allows: what a dealt hand holds.

A shuffled deck dealt into hands (with or without cards set aside) gives
every seat a uniformly random set of `hand` cards from the deck, so the
number of cards of one kind in a hand is hypergeometric and the counts of
several kinds together are multivariate hypergeometric:

    P(k of the K red cards in a hand of n from N) = C(K, k) C(N-K, n-k) / C(N, n)

    colour_in_hand(bucket_brigade.Config(), "red")     # {0: ..., 1: ..., ...}
    colour_at_least(bucket_king.Config(), "red", 4)    # P(>= 4 red in a hand)

The card-game helpers work for any game whose Config has `deck()` and
`hand_size` (Bucket Brigade, Bucket King). Game-specific exact maths lives
in the game modules and is re-exported here when present:
`exact_turn_distance` (Piggyback Brigade), `bust_probability`,
`steal_expectation`, `best_stop` (Duck, Duck, Bruce).
Every function is checked against brute-force enumeration in tests/rules/test_exact.py.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb, exp, lgamma, log, log1p
from typing import Any, Callable, Hashable, Iterable, Mapping

from .duck_duck_bruce import best_stop, bust_probability, steal_expectation
from .piggyback_brigade import exact_turn_distance
from .files import shown_text

Dist = dict  # {outcome: Fraction}, probabilities summing to 1


def _check_counts(population: int, successes: int, draws: int) -> None:
    for name, v in (("population", population), ("successes", successes), ("draws", draws)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {v!r}")
    if successes > population:
        raise ValueError(f"successes={successes} is more than the population {population}")
    if draws > population:
        raise ValueError(f"cannot draw {draws} cards from {population}")


def hypergeometric(population: int, successes: int, draws: int) -> dict[int, Fraction]:
    """{k: P(exactly k of the `successes` marked cards among `draws` cards drawn
    without replacement from `population`)}; only possible k are listed."""
    _check_counts(population, successes, draws)
    total = comb(population, draws)
    low, high = max(0, draws - (population - successes)), min(draws, successes)
    return {k: Fraction(comb(successes, k) * comb(population - successes, draws - k), total) for k in range(low, high + 1)}


def at_least(dist: Mapping[int, Fraction], k: int) -> Fraction:
    """P(outcome >= k) of a distribution {outcome: probability}."""
    return sum((p for v, p in dist.items() if v >= k), Fraction(0))


def at_most(dist: Mapping[int, Fraction], k: int) -> Fraction:
    return sum((p for v, p in dist.items() if v <= k), Fraction(0))


def mean(dist: Mapping[Any, Fraction]) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def variance(dist: Mapping[Any, Fraction]) -> Fraction:
    m = mean(dist)
    return sum(((v - m) ** 2 * p for v, p in dist.items()), Fraction(0))


def hand_composition(groups: Mapping[Hashable, int], draws: int) -> dict[tuple[int, ...], Fraction]:
    """Multivariate hypergeometric: {(count of group 1, group 2, ...): P} for a hand of
    `draws` cards from a deck of `groups` ({label: cards}, in the mapping's order)."""
    sizes = list(groups.values())
    for label, v in groups.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"group {label!r} must hold a whole number >= 0 of cards, got {v!r}")
    population = sum(sizes)
    _check_counts(population, 0, draws)
    total = comb(population, draws)
    out: dict[tuple[int, ...], Fraction] = {}

    def fill(i: int, left: int, counts: tuple[int, ...], ways: int) -> None:
        if i == len(sizes) - 1:
            if left <= sizes[i]:
                out[counts + (left,)] = Fraction(ways * comb(sizes[i], left), total)
            return
        rest = sum(sizes[i + 1 :])
        for k in range(max(0, left - rest), min(sizes[i], left) + 1):
            fill(i + 1, left - k, counts + (k,), ways * comb(sizes[i], k))

    if sizes:
        fill(0, draws, (), 1)
    elif draws == 0:
        out[()] = Fraction(1)
    return out


def count_dist(deck: Iterable, hand: int, match: Callable[[Any], bool]) -> dict[int, Fraction]:
    """{k: P(k cards that `match` in a uniformly random hand of `hand` cards from `deck`)}."""
    deck = list(deck)
    return hypergeometric(len(deck), sum(1 for c in deck if match(c)), hand)


# --- card games (any Config with deck() and hand_size) -------------------------

def _deck_and_hand(config) -> tuple[list, int]:
    if not (hasattr(config, "deck") and hasattr(config, "hand_size")):
        raise ValueError(f"{type(config).__module__}.Config has no deck() and hand_size: not a dealt card game")
    return list(config.deck()), config.hand_size


def _check_colour(config, colour) -> None:
    if colour is not None and colour not in config.colours:
        raise ValueError(f"colour {shown_text(repr(colour) if isinstance(colour, str) else colour, 40)} is not in this "
                         f"game's colours: {', '.join(config.colours)}")


def colour_in_hand(config, colour: str | None) -> dict[int, Fraction]:
    """How many cards of `colour` the hand dealt to one seat holds ({k: P}).
    `colour=None` counts cards without a colour (Bucket Brigade's jokers)."""
    _check_colour(config, colour)
    deck, hand = _deck_and_hand(config)
    return count_dist(deck, hand, lambda c: c.colour == colour)


def colour_at_least(config, colour: str | None, k: int) -> Fraction:
    """P(a dealt hand holds at least k cards of `colour`)."""
    return at_least(colour_in_hand(config, colour), k)


def colour_split(config) -> dict[tuple[int, ...], Fraction]:
    """Joint distribution of a dealt hand's cards per colour, in `config.colours`
    order (plus a last entry for colourless cards if the deck has any)."""
    deck, hand = _deck_and_hand(config)
    by = Counter(c.colour for c in deck)
    groups = {c: by.get(c, 0) for c in config.colours}
    if by.get(None):
        groups[None] = by[None]
    return hand_composition(groups, hand)


def longest_colour_at_least(config, k: int) -> Fraction:
    """P(a dealt hand holds at least k cards of some one colour)."""
    n = len(config.colours)
    return sum((p for counts, p in colour_split(config).items() if max(counts[:n], default=0) >= k), Fraction(0))


# --- dice and races (Piggyback Brigade; any die given as its faces) ---------------

def die(faces: Iterable[int]) -> dict[int, Fraction]:
    """{value: P} of one roll of a fair die with these faces (repeats count twice)."""
    faces = list(faces)
    if not faces:
        raise ValueError("a die needs at least one face")
    for v in faces:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"die faces must be whole numbers, got {v!r}")
    return {v: Fraction(c, len(faces)) for v, c in sorted(Counter(faces).items())}


def _goes_on(config, last: bool) -> list[bool]:
    # PB-6/PB-7: a face rerolls if its rule is "yes", or "if-last" and the piglet was last before the roll
    return [r == "yes" or (r == "if-last" and last) for r in config.rerolls]


def turn_mean(config, from_last: bool = False) -> Fraction:
    """Expected spaces of a turn that rerolls whenever allowed, with no cap on rerolls
    and no other piglet or finish in the way: the mean roll times the expected number
    of rolls, a geometric 1 / P(a roll ends the turn). `from_last`: "if-last" faces
    reroll (the piglet stays last all turn). This is also what the option to reroll
    is worth: after a reroll face the rest of the turn is a fresh turn."""
    on = _goes_on(config, from_last)
    stop = Fraction(len(on) - sum(on), len(on))
    if stop == 0:
        raise ValueError("every face rerolls: the turn never ends (set max_rerolls and use exact_turn_distance)")
    return Fraction(sum(config.faces), len(config.faces)) / stop


def chase_turn_mean(config, gap: int) -> Fraction:
    """Expected spaces one piglet moves in a turn when it rerolls whenever allowed and
    last place is judged before every roll (PB-7), chasing the only other piglet,
    which stands `gap` spaces ahead (0: the same space; a piglet on the same space is
    not behind it, so it is still last). Ignores the finish. With `config.max_rerolls`
    the turn stops after that many rerolls; without, rerolls are unlimited (and a die
    whose every face rerolls when ahead is refused: its turn never ends)."""
    if isinstance(gap, bool) or not isinstance(gap, int) or gap < 0:
        raise ValueError(f"gap must be a whole number of spaces >= 0, got {gap!r}")
    faces, n = config.faces, len(config.faces)
    cap = config.max_rerolls
    ahead_on, behind_on = _goes_on(config, False), _goes_on(config, True)
    if cap is None:
        p_on = Fraction(sum(ahead_on), n)
        if p_on == 1:
            raise ValueError("every face rerolls even when the piglet is ahead: the turn never ends")
        # ahead for good: a geometric number of rolls, each worth the mean face
        ahead_mean = Fraction(sum(faces), n) / (1 - p_on)
    memo: dict[tuple[int, int], Fraction] = {}

    def rest(g: int, used: int) -> Fraction:
        """Expected distance still to come, about to roll, `g` spaces behind (g < 0: ahead),
        after `used` rerolls."""
        if g < 0 and cap is None:
            return ahead_mean
        key = (g, used)
        if key not in memo:
            on = behind_on if g >= 0 else ahead_on
            total = Fraction(0)
            for v, more in zip(faces, on):
                total += v
                if more and (cap is None or used < cap):
                    total += rest(g - v, used + 1)
            memo[key] = total / n
        return memo[key]

    return rest(gap, 0)


def time_trial_turns(config, spaces: int | None = None) -> dict[int, Fraction]:
    """{t: P(a piglet crosses the finish on its t-th turn)} for one piglet that is never
    last (black faces end its turn, PB-7), rerolls whenever allowed, and meets no other
    piglet, on a track of `spaces` spaces (default: the config's track). An absorbing
    Markov chain on the spaces covered: every roll moves at least one space, so the
    race ends within `spaces + 1` turns and the distribution is finite."""
    spaces = config.spaces if spaces is None else spaces
    if isinstance(spaces, bool) or not isinstance(spaces, int) or spaces < 1:
        raise ValueError(f"spaces must be a whole number >= 1, got {spaces!r}")
    if min(config.faces) < 1:
        raise ValueError("every face must move at least one space")
    steps = _turn_steps(config, spaces)
    further = 1 - sum(steps.values())
    where = {0: Fraction(1)}
    dist: dict[int, Fraction] = {}
    t = 0
    while where:
        t += 1
        nxt: dict[int, Fraction] = {}
        done = Fraction(0)
        for x, p in where.items():
            for d, q in steps.items():
                if x + d <= spaces:
                    nxt[x + d] = nxt.get(x + d, 0) + p * q
                else:  # PB-13: past the last space
                    done += p * q
            done += p * further  # moves further than any listed distance
        if done:
            dist[t] = done
        where = nxt
    return dist


def time_trial_mean(config, spaces: int | None = None) -> Fraction:
    """Mean of `time_trial_turns`, by first-step analysis (faster):
    E(x) = 1 + sum_d P(a turn moves d) E(x + d), E(past the finish) = 0."""
    spaces = config.spaces if spaces is None else spaces
    if isinstance(spaces, bool) or not isinstance(spaces, int) or spaces < 1:
        raise ValueError(f"spaces must be a whole number >= 1, got {spaces!r}")
    steps = _turn_steps(config, spaces)
    e: dict[int, Fraction] = {}
    for x in range(spaces, -1, -1):
        e[x] = 1 + sum((q * e[x + d] for d, q in steps.items() if x + d <= spaces), Fraction(0))
    return e[0]


def _turn_steps(config, spaces: int) -> dict[int, Fraction]:
    """{d: P(one turn of a never-last piglet moves exactly d)} for d <= spaces (the rest moves
    further). Every roll moves forward, so the running totals are swept upwards."""
    if min(config.faces) < 1:
        raise ValueError("every face must move at least one space")
    n, on, cap = len(config.faces), _goes_on(config, False), config.max_rerolls
    out: dict[int, Fraction] = {}
    rolling: dict[int, dict[int, Fraction]] = {0: {0: Fraction(1)}}  # total -> {rerolls used: P}
    for y in range(0, spaces + 1):
        for used, p in rolling.pop(y, {}).items():
            for v, more in zip(config.faces, on):
                z = y + v
                if z > spaces:
                    continue  # beyond every listed distance
                if more and (cap is None or used < cap):
                    at = rolling.setdefault(z, {})
                    at[used + 1] = at.get(used + 1, 0) + p / n
                else:
                    out[z] = out.get(z, 0) + p / n
    return out


# --- flips without replacement (Duck, Duck, Bruce) -------------------------------

def fresh_flips(row_suits: Iterable[str], remaining: Mapping[str | None, int], flips: int) -> Fraction:
    """P(the next `flips` flips all show ducks of suits not yet in the row: no double,
    DDB-5, and no Bruce, DDB-6), drawing without replacement. `row_suits`: the suits
    in the row; `remaining`: {suit: ducks still face down, None: Bruces face down}."""
    counts = dict(remaining)
    for s, c in counts.items():
        if isinstance(c, bool) or not isinstance(c, int) or c < 0:
            raise ValueError(f"remaining[{s!r}] must be a whole number >= 0, got {c!r}")
    if isinstance(flips, bool) or not isinstance(flips, int) or flips < 0:
        raise ValueError(f"flips must be a whole number >= 0, got {flips!r}")
    if flips > sum(counts.values()):
        raise ValueError(f"cannot flip {flips} cards: only {sum(counts.values())} remain")
    seen = frozenset(row_suits)

    def go(seen: frozenset, counts: tuple, k: int) -> Fraction:
        if k == 0:
            return Fraction(1)
        total = sum(c for _, c in counts)
        p = Fraction(0)
        for i, (s, c) in enumerate(counts):
            if c and s is not None and s not in seen:
                rest = counts[:i] + ((s, c - 1),) + counts[i + 1:]
                p += Fraction(c, total) * go(seen | {s}, rest, k - 1)
        return p

    return go(seen, tuple(counts.items()), flips)


# --- winning, not scoring: a last gamble (lesson 9) ------------------------------

def win_chance(swing: Mapping[Any, Fraction], lead) -> Fraction:
    """P(win) for a player `lead` points ahead of their only rival before a last gamble
    that changes the lead by `swing` ({change: P}): ending ahead wins, level shares
    the win (counts 1/2), behind loses."""
    total = Fraction(0)
    for change, p in swing.items():
        after = lead + change
        total += p if after > 0 else p / 2 if after == 0 else 0
    return total


def steal_swing(declared: int, config) -> dict[int, Fraction]:
    """How one steal changes the thief's lead over the victim, {change: P}, counting
    each card as a point and assuming both nests are large enough (Duck, Duck, Bruce):
    a roll at least the claim moves `declared` cards from victim to thief (+2 x declared,
    DDB-7); a -1 costs the thief a card, which the victim gains under `steal-back` (-2)
    or which is discarded (-1, DDB-8); any other roll changes nothing. `declared=0`
    is declining (no roll: no change)."""
    if isinstance(declared, bool) or not isinstance(declared, int):
        raise ValueError(f"declared must be a whole number of cards, got {declared!r}")
    if declared == 0:
        return {0: Fraction(1)}
    if not config.min_steal <= declared <= config.max_steal:
        raise ValueError(f"declared={declared} is not allowed: 0 (decline) or {config.min_steal} to {config.max_steal} cards")
    backfire = -2 if config.minus_one == "steal-back" else -1
    out: dict[int, Fraction] = {}
    for face in config.die:
        change = 2 * declared if face >= declared else backfire if face == -1 else 0
        out[change] = out.get(change, 0) + Fraction(1, len(config.die))
    return dict(sorted(out.items()))


def beat_chance(a: Mapping[Any, Fraction], b: Mapping[Any, Fraction]) -> Fraction:
    """P(A beats B) for independent A and B given as {value: P} (e.g. two `die(...)`s):
    P(A > B) plus half of P(A = B), a tie counting as half a win (lesson 14's payoff matrices)."""
    total = Fraction(0)
    for x, p in a.items():
        for y, q in b.items():
            total += p * q if x > y else p * q / 2 if x == y else 0
    return total

# --- what a bid reveals: Bayes' rule on a dealt hand (lesson 10) ------------------

def posterior(prior: Mapping[Hashable, Fraction], likelihood: Callable[[Any], Fraction]) -> dict:
    """Bayes' rule: {h: P(h | evidence)} from {h: P(h)} and P(evidence | h) = likelihood(h).
    Hypotheses the evidence rules out are dropped."""
    joint = {h: p * Fraction(likelihood(h)) for h, p in prior.items()}
    total = sum(joint.values(), Fraction(0))
    if total == 0:
        raise ValueError("the evidence is impossible under every hypothesis")
    return {h: q / total for h, q in joint.items() if q}


def lead_likelihood(config, colour: str) -> dict[int, Fraction]:
    """{k: P(a leader holding k cards of `colour` leads it)} for a leader that leads a
    colour it holds most cards of, ties broken at random (the hand otherwise freshly
    dealt). Colourless cards (jokers) never count as a colour to lead."""
    _check_colour(config, colour)
    n = len(config.colours)
    at = config.colours.index(colour)
    joint: dict[int, Fraction] = {}
    prior: dict[int, Fraction] = {}
    for counts, p in colour_split(config).items():
        top = max(counts[:n])
        k = counts[at]
        prior[k] = prior.get(k, 0) + p
        if k == top:
            joint[k] = joint.get(k, 0) + p / sum(1 for c in counts[:n] if c == top)
    return {k: joint.get(k, Fraction(0)) / prior[k] for k in sorted(prior)}


def led_colour_count(config, colour: str) -> dict[int, Fraction]:
    """{k: P(the leader holds k cards of `colour` | it led `colour`)}: Bayes' rule with
    the hand's `colour_in_hand` as prior and `lead_likelihood` as likelihood."""
    like = lead_likelihood(config, colour)
    return posterior(colour_in_hand(config, colour), like.__getitem__)


# --- streaks, elimination and the first seat (lessons 19-21) ----------------------

def _whole(name: str, v, low: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise ValueError(f"{name} must be a whole number >= {low}, got {v!r}")
    return v


def _chance(name: str, p) -> Fraction:
    if isinstance(p, bool) or not isinstance(p, (int, Fraction)) or not 0 <= p <= 1:
        raise ValueError(f"{name} must be an exact chance from 0 to 1 (an int or a Fraction), got {p!r}")
    return Fraction(p)


def longest_gap(cards: int, marked: int) -> dict[int, Fraction]:
    """{m: P(the longest run of unmarked cards in a well-shuffled pile of `cards` cards, `marked` of
    them marked, is exactly m)}: e.g. the longest wait for a Bruce in a Duck, Duck, Bruce pile
    (DDB-2). The marked cards' places are a uniform `marked`-subset of the pile, one-to-one with
    the ways of splitting the unmarked cards into marked + 1 gaps, so P(every gap <= m) counts
    those splits with every part at most m (inclusion-exclusion) over C(cards, marked)."""
    _check_counts(cards, marked, 0)
    u, k = cards - marked, marked + 1
    total = comb(cards, marked)

    def at_most(m: int) -> int:  # splits of u into k parts, each 0..m
        return sum((-1) ** j * comb(k, j) * comb(u - j * (m + 1) + k - 1, k - 1)
                   for j in range(k + 1) if u - j * (m + 1) >= 0)

    out, below = {}, 0
    for m in range(u + 1):
        now = at_most(m)
        if now > below:
            out[m] = Fraction(now - below, total)
        below = now
    return out


def longest_run(trials: int, p) -> dict[int, Fraction]:
    """{m: P(the longest run of successes in `trials` independent trials, each a success with
    chance `p`, is exactly m)}: the same question as `longest_gap` with replacement (a die, or
    a card put back and reshuffled after every flip). Dynamic programming on the current run."""
    _whole("trials", trials)
    p = _chance("p", p)
    q = 1 - p

    def below(m: int) -> Fraction:  # P(no run reaches m)
        runs = {0: Fraction(1)}  # current run length -> P, every run < m so far
        for _ in range(trials):
            nxt: dict[int, Fraction] = {}
            for r, w in runs.items():
                nxt[0] = nxt.get(0, 0) + w * q
                if r + 1 < m:
                    nxt[r + 1] = nxt.get(r + 1, 0) + w * p
            runs = nxt
        return sum(runs.values(), Fraction(0))

    out, last = {}, Fraction(0)
    for m in range(trials + 1):
        now = below(m + 1)
        if now != last:
            out[m] = now - last
        last = now
    return out


def elimination_rounds(players: int, lives: int) -> dict[tuple[int, int], Fraction]:
    """{(r1, r2): P(the first player is out at the end of round r1 and the second at the end
    of round r2)} in a model of an elimination game: every player starts with `lives`; every
    round one player still in, each equally likely, loses one life; a player with none left is
    out. (Bucket King with 5-6 players, BK-16, if every lost round cost exactly one bucket and
    the loser were a lottery: lesson 20 measures how far the game is from it.) Needs at least
    two players out, so `players` >= 2; counts kept sorted, as players are alike."""
    _whole("players", players, 2)
    _whole("lives", lives, 1)
    first: dict[tuple[tuple[int, ...], int | None], Fraction] = {(tuple([0] * players), None): Fraction(1)}
    out: dict[tuple[int, int], Fraction] = {}
    r = 0
    while first:
        r += 1
        nxt: dict[tuple[tuple[int, ...], int | None], Fraction] = {}
        for (lost, r1), w in first.items():
            share = w / len(lost)
            for i in range(len(lost)):
                hit = list(lost)
                hit[i] += 1
                if hit[i] == lives:
                    if r1 is not None:  # the second player out
                        out[(r1, r)] = out.get((r1, r), 0) + share
                        continue
                    del hit[i]
                    key = (tuple(sorted(hit)), r)
                else:
                    key = (tuple(sorted(hit)), r1)
                nxt[key] = nxt.get(key, 0) + share
        first = nxt
    return out


def race_seat_chances(turns: Mapping[int, Fraction], players: int) -> list[Fraction]:
    """P(seat k finishes first), k = 0 (Player 1) to players - 1, in a race where every seat
    needs a number of its own turns drawn independently from `turns` ({t: P}, t >= 1) and the
    seats move in order, Player 1 first (PB-3). Seat k wins on its t-th turn when every seat
    before it needs more than t turns and every seat after it at least t: the first seat wins
    every tie in turns. A model of a race with no interaction (lesson 21)."""
    _whole("players", players, 1)
    if not turns or any(isinstance(t, bool) or not isinstance(t, int) or t < 1 for t in turns):
        raise ValueError(f"turns must be a distribution {{t: P}} over whole numbers of turns >= 1, got {dict(turns)!r}")
    if sum(turns.values()) != 1:
        raise ValueError(f"the chances in turns must add up to 1, got {sum(turns.values())}")
    ts = sorted(turns)
    more = {t: sum((turns[u] for u in ts if u > t), Fraction(0)) for t in ts}  # P(T > t)
    return [sum((turns[t] * more[t] ** k * (more[t] + turns[t]) ** (players - 1 - k) for t in ts), Fraction(0))
            for k in range(players)]


def race_seat_chances_each(trials: "list[Mapping[int, Fraction]]") -> list[Fraction]:
    """race_seat_chances with each seat's own turns distribution (Player 1's first): a seat
    with a head start (PB-17, `seat_spaces`) runs a shorter track, `time_trial_turns(config,
    config.spaces - start)`. Seat k wins on its t-th turn when every seat before it needs more
    than t turns and every seat after it at least t (lesson 21)."""
    if not trials:
        raise ValueError("trials must list one turns distribution per seat, got none")
    for turns in trials:
        if not turns or any(isinstance(t, bool) or not isinstance(t, int) or t < 1 for t in turns) \
                or sum(turns.values()) != 1:
            raise ValueError(f"each seat's turns must be a distribution {{t: P}} over turns >= 1, got {dict(turns)!r}")
    ts = sorted(set().union(*trials))
    more = [{t: sum((p for u, p in turns.items() if u > t), Fraction(0)) for t in ts} for turns in trials]
    out = []
    for k, turns in enumerate(trials):
        total = Fraction(0)
        for t, p in turns.items():
            for j in range(len(trials)):
                if j != k:
                    p *= more[j][t] if j < k else more[j][t] + trials[j].get(t, 0)
            total += p
        out.append(total)
    return out


# --- the game modules' own exact maths, gathered here for lessons ----------------

# best_stop, bust_probability, steal_expectation (Duck, Duck, Bruce) and exact_turn_distance
# (Piggyback Brigade) are imported at the top of this module.

__all__ = [
    "hypergeometric", "at_least", "at_most", "mean", "variance", "hand_composition", "count_dist",
    "colour_in_hand", "colour_at_least", "colour_split", "longest_colour_at_least",
    "die", "turn_mean", "chase_turn_mean", "time_trial_turns", "time_trial_mean", "fresh_flips",
    "exact_turn_distance", "bust_probability", "steal_expectation", "best_stop",
]
__all__ += ["win_chance", "steal_swing", "beat_chance", "posterior", "lead_likelihood", "led_colour_count"]
__all__ += ["longest_gap", "longest_run", "elimination_rounds", "race_seat_chances", "race_seat_chances_each"]


# --- lessons 15-18: a win rate's posterior, sums of turns, first to finish, mixed strategies ---

def _whole(name: str, v, low: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise ValueError(f"{name} must be a whole number >= {low}, got {v!r}")
    return v


def beta_posterior(a: int, b: int, wins: int, games: int) -> tuple[int, int]:
    """Beta(a, b) prior on a win rate, then `wins` of `games`: the posterior Beta(a + wins, b + losses)
    (the beta-binomial update; whole a, b >= 1, so every density below is a polynomial)."""
    _whole("a", a, 1), _whole("b", b, 1), _whole("games", games), _whole("wins", wins)
    if wins > games:
        raise ValueError(f"wins={wins} is more than games={games}")
    return a + wins, b + games - wins


def beta_mean(a: int, b: int) -> Fraction:
    """Mean a / (a + b) of Beta(a, b)."""
    _whole("a", a, 1), _whole("b", b, 1)
    return Fraction(a, a + b)


def beta_cdf(a: int, b: int, x) -> Fraction:
    """P(p <= x) for p ~ Beta(a, b), whole a, b >= 1, exactly: the a-th smallest of a + b - 1
    uniform numbers is below x exactly when at least a of them are, a binomial tail."""
    _whole("a", a, 1), _whole("b", b, 1)
    x = Fraction(x)
    if not 0 <= x <= 1:
        raise ValueError(f"x must be between 0 and 1, got {x}")
    n = a + b - 1
    # in whole numbers over the common denominator q^n (Fractions would reduce every term)
    p, q = x.numerator, x.denominator
    return Fraction(sum(comb(n, j) * p**j * (q - p) ** (n - j) for j in range(a, n + 1)), q**n)


def _beta_cdf_float(a: int, b: int, x: float) -> float:
    # the same binomial tail in logarithms: floats without overflow for thousands of games
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    n = a + b - 1
    lx, l1 = log(x), log1p(-x)
    return min(1.0, sum(exp(lgamma(n + 1) - lgamma(j + 1) - lgamma(n - j + 1) + j * lx + (n - j) * l1)
                        for j in range(a, n + 1)))


def beta_quantile(a: int, b: int, q: float) -> float:
    """The x with P(p <= x) = q for p ~ Beta(a, b) (bisection to about 1e-12: a credible bound)."""
    _whole("a", a, 1), _whole("b", b, 1)
    if not 0 < q < 1:
        raise ValueError(f"q must be strictly between 0 and 1, got {q!r}")
    lo, hi = 0.0, 1.0
    for _ in range(45):
        mid = (lo + hi) / 2
        if _beta_cdf_float(a, b, mid) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def credible_interval(a: int, b: int, level: float = 0.95) -> tuple[float, float]:
    """The central credible interval of Beta(a, b): equal chance (1 - level) / 2 below and above."""
    if not 0 < level < 1:
        raise ValueError(f"level must be strictly between 0 and 1, got {level!r}")
    tail = (1 - level) / 2
    return beta_quantile(a, b, tail), beta_quantile(a, b, 1 - tail)


def turn_distance(config, up_to: int) -> dict[int, Fraction]:
    """{d: P(one turn moves a never-last piglet exactly d spaces)} for d <= up_to (it rerolls
    whenever allowed, PB-6 to PB-8, and meets nobody); the rest of the chance moves further."""
    _whole("up_to", up_to, 1)
    return dict(sorted(_turn_steps(config, up_to).items()))


def turn_moments(config) -> tuple[Fraction, Fraction]:
    """(mean, variance) of a never-last piglet's whole turn, uncapped rerolls: K reroll faces
    (K geometric, P(K = j) = c^j (1 - c), c = the chance a face rerolls) then one stopping face,
    so E = E[K] m_go + m_stop and Var = E[K] v_go + Var(K) m_go^2 + v_stop."""
    if config.max_rerolls is not None:
        d = exact_turn_distance(config, from_last=False)  # capped: the finite distribution is the turn
        return mean(d), variance(d)
    on = _goes_on(config, False)
    go = [v for v, more in zip(config.faces, on) if more]
    stop = [v for v, more in zip(config.faces, on) if not more]
    if not stop:
        raise ValueError("every face rerolls: the turn never ends (set max_rerolls)")
    c = Fraction(len(go), len(config.faces))
    k_mean, k_var = c / (1 - c), c / (1 - c) ** 2
    ds = die(stop)
    m_go, v_go = (mean(die(go)), variance(die(go))) if go else (Fraction(0), Fraction(0))
    return k_mean * m_go + mean(ds), k_mean * v_go + k_var * m_go**2 + variance(ds)


def distance_after(config, turns: int, up_to: int) -> dict[int, Fraction]:
    """{d: P(a never-last piglet has moved exactly d spaces after `turns` turns)} for d <= up_to,
    ignoring the finish: the turn's distribution convolved with itself `turns` times (every
    turn moves at least one space, so totals above up_to never come back below it)."""
    _whole("turns", turns), _whole("up_to", up_to, 1)
    step = turn_distance(config, up_to)
    dist = {0: Fraction(1)}
    for _ in range(turns):
        nxt: dict[int, Fraction] = {}
        for x, p in dist.items():
            for d, q in step.items():
                if x + d <= up_to:
                    nxt[x + d] = nxt.get(x + d, 0) + p * q
        dist = nxt
    return dict(sorted(dist.items()))


def _race_survival(config, spaces):
    """(turn distribution T of a lone piglet, S(t) = P(T > t))."""
    trial = time_trial_turns(config, spaces)
    def survive(t: int) -> Fraction:
        return sum((p for u, p in trial.items() if u > t), Fraction(0))
    return trial, survive


def first_to_finish(config, racers: int, spaces: int | None = None) -> dict:
    """The model of lesson 17: `racers` lone piglets (time_trial_turns each), independent, one per
    seat, moving in seat order each round; the race ends the round the first crosses. Returns
    {"rounds": {t: P(the race ends in round t)}, "seats": [P(seat j's piglet crosses first)]}:
    P(over by round t) = 1 - S(t)^racers, and seat j wins in round t when it crosses then, the
    seats before it have not crossed by round t and those after it had not by round t - 1."""
    _whole("racers", racers, 1)
    trial, S = _race_survival(config, spaces)
    rounds = {t: S(t - 1) ** racers - S(t) ** racers for t in trial}
    seats = [sum((p * S(t) ** j * S(t - 1) ** (racers - 1 - j) for t, p in trial.items()), Fraction(0))
             for j in range(racers)]
    return {"rounds": {t: p for t, p in rounds.items() if p}, "seats": seats}


def leaders_lead(config, racers: int, spaces: int | None = None) -> dict[int, Fraction]:
    """{g: P(the runner-up crosses g turns of its own after the winner)} in lesson 17's model
    (g = 0: two or more piglets cross in the same round, and seat order decides)."""
    _whole("racers", racers, 2)
    trial, S = _race_survival(config, spaces)
    out: dict[int, Fraction] = {}
    tie = Fraction(0)
    for a, p in trial.items():
        # exactly one piglet crosses in round a: the others' first is in a later round b
        for b in trial:
            if b > a:
                q = S(b - 1) ** (racers - 1) - S(b) ** (racers - 1)
                if q:
                    out[b - a] = out.get(b - a, 0) + racers * p * q
        tie += S(a - 1) ** racers - S(a) ** racers - racers * p * S(a) ** (racers - 1)
    if tie:
        out[0] = tie
    return dict(sorted(out.items()))


def solve_zero_sum(matrix) -> tuple[list[Fraction], list[Fraction], Fraction]:
    """An equilibrium (row mix, column mix, value) of the zero-sum game where the row player gets
    matrix[i][j] and maximises, exactly: support enumeration (square supports, solved with
    Fractions), each candidate kept only if no pure strategy of either player does better."""
    m = [[Fraction(v) for v in row] for row in matrix]
    if not m or not m[0] or any(len(r) != len(m[0]) for r in m):
        raise ValueError("the payoff matrix needs at least one row and one column, all rows the same length")
    rows, cols = len(m), len(m[0])
    # a pure saddle point first (the common case, and no linear algebra)
    for i in range(rows):
        for j in range(cols):
            if m[i][j] == min(m[i]) and m[i][j] == max(r[j] for r in m):
                x = [Fraction(int(k == i)) for k in range(rows)]
                y = [Fraction(int(k == j)) for k in range(cols)]
                return x, y, m[i][j]
    for size in range(2, min(rows, cols) + 1):
        for R in combinations(range(rows), size):
            for C in combinations(range(cols), size):
                x = _indifferent([[m[i][j] for i in R] for j in C])  # row mix making every C column equal
                y = _indifferent([[m[i][j] for j in C] for i in R])  # column mix making every R row equal
                if x is None or y is None:
                    continue
                xs = [Fraction(0)] * rows
                for i, p in zip(R, x):
                    xs[i] = p
                ys = [Fraction(0)] * cols
                for j, q in zip(C, y):
                    ys[j] = q
                v = sum((xs[i] * m[i][C[0]] for i in R), Fraction(0))
                if all(sum((xs[i] * m[i][j] for i in range(rows)), Fraction(0)) >= v for j in range(cols)) and \
                        all(sum((ys[j] * m[i][j] for j in range(cols)), Fraction(0)) <= v for i in range(rows)):
                    return xs, ys, v
    raise AssertionError("no equilibrium found: every finite zero-sum game has one")


def _indifferent(eq: list[list[Fraction]]) -> list[Fraction] | None:
    """Weights w >= 0 summing to 1 with sum_k w_k eq[r][k] equal for every row r, or None."""
    n = len(eq[0])
    # unknowns w_1..w_n and v: eq[r] . w - v = 0 for each row, sum w = 1
    a = [list(r) + [Fraction(-1), Fraction(0)] for r in eq] + [[Fraction(1)] * n + [Fraction(0), Fraction(1)]]
    size = n + 1
    if len(a) != size:
        return None
    for c in range(size):
        pivot = next((r for r in range(c, size) if a[r][c] != 0), None)
        if pivot is None:
            return None  # singular: no unique mix on this support
        a[c], a[pivot] = a[pivot], a[c]
        a[c] = [v / a[c][c] for v in a[c]]
        for r in range(size):
            if r != c and a[r][c] != 0:
                a[r] = [v - a[r][c] * w for v, w in zip(a[r], a[c])]
    w = [a[k][size] for k in range(n)]
    return w if all(p >= 0 for p in w) else None


def guarded_steal_matrix(config, lead: int) -> dict[tuple[int, int], Fraction]:
    """Lesson 18's variant of the last steal (Duck, Duck, Bruce, lesson 9): before the roll the
    victim secretly guards one claim; the thief, `lead` cards ahead of the victim (negative:
    behind), declares a claim at the same moment, or declines (claim 0). A guarded claim is blocked (no roll, the lead
    stays); any other is rolled as DDB-7/DDB-8 say. {(claim, guard): P(the thief wins)}, a level
    finish counting half (win_chance)."""
    if isinstance(lead, bool) or not isinstance(lead, int):
        raise ValueError(f"lead must be a whole number of cards, got {lead!r}")
    claims = range(config.min_steal, config.max_steal + 1)
    return {(d, g): win_chance({0: Fraction(1)} if d in (0, g) else steal_swing(d, config), lead)
            for d in (0, *claims) for g in claims}


__all__ += ["beta_posterior", "beta_mean", "beta_cdf", "beta_quantile", "credible_interval",
            "turn_distance", "turn_moments", "distance_after", "first_to_finish", "leaders_lead",
            "solve_zero_sum", "guarded_steal_matrix"]
