#!/usr/bin/env python3
"""Times the public Python Magical Athlete simulator, the anchor for
`cargo bench --bench magical_athlete` (see docs/performance.md).

    git clone https://github.com/jmvicke237/magical-athlete-simulator /tmp/jmv
    python3 benches/anchor/magical_athlete_python.py /tmp/jmv 400 [RACERS] [Mild|Wild ...]

Runs N races of RACERS (default 4) random racers from the base set on each track named
(default both) and prints races/s. benches/anchor/magical_athlete_paired.sh pairs it with
the Rust bench. Run it from a scratch directory: the simulator writes logs/ where it runs.
"""
import random
import sys
import time

if len(sys.argv) < 2:
    sys.exit(__doc__)
sys.path.insert(0, sys.argv[1])
from config import character_abilities  # noqa: E402  (the simulator's own modules)
from game_simulation import run_simulations  # noqa: E402

# The base game's racers, as the Rust engine has them; the simulator spells some apart.
BASE = {
    "alchemist", "babayaga", "banana", "blimp", "centaur", "cheerleader", "coach",
    "copycat", "dicemonger", "duelist", "egg", "flipflop", "genius", "gunk", "hare",
    "heckler", "hugebaby", "hypnotist", "inchworm", "lackey", "leaptoad", "legs",
    "lovableloser", "loveableloser", "magician", "mastermind", "mouth", "partyanimal",
    "rocketscientist", "romantic", "scoocher", "sisyphus", "sisyphis", "skipper",
    "stickler", "suckerfish", "thirdwheel", "twin",
}


def squash(name):
    return "".join(c for c in name.lower() if c.isalnum())


allowed = [k for k in character_abilities if squash(k) in BASE]
print(f"{len(allowed)} base racers found", file=sys.stderr)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 400
racers = int(sys.argv[3]) if len(sys.argv) > 3 else 4
boards = sys.argv[4:] or ["Mild", "Wild"]
random.seed(1)
for board in boards:
    start = time.perf_counter()
    run_simulations(n, racers, board_type=board, allowed_characters=allowed)
    took = time.perf_counter() - start
    print(f"{board}: {n} races of {racers} in {took:.2f}s = {n / took:.1f} races/s")
