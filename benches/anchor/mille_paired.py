#!/usr/bin/env python3
"""1000 miles against the Python peer `elliotkendall/mille-ai`, paired: runs the two in
alternation (photofinish, peer, photofinish, peer, ...), PAIRS pairs, and prints each
pair's ratio and the median ratio of games/s (and of hands/s). Every seat on both sides is
its program's own heuristic player; both play whole games to 5,000 points. Each side is
timed as a whole process (wall clock), so start-up counts against both.

    git clone https://github.com/elliotkendall/mille-ai /tmp/mille-ai
    cargo build --release --locked
    python3 benches/anchor/mille_paired.py /tmp/mille-ai 2     # 2 players
    python3 benches/anchor/mille_paired.py /tmp/mille-ai 4     # 2 teams of 2

Options (after the two arguments): --pairs 5, --games 10000 (photofinish's games a run),
--peer-games 100, --python python2 (a Python 2.7: the peer is Python 2; with pyenv,
PYENV_VERSION=2.7.18), --binary target/release/photofinish.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("peer", help="a checkout of elliotkendall/mille-ai")
    p.add_argument("players", type=int, choices=[2, 4])
    p.add_argument("--pairs", type=int, default=5)
    p.add_argument("--games", type=int, default=10000)
    p.add_argument("--peer-games", type=int, default=100)
    p.add_argument("--python", default="python2")
    p.add_argument("--binary", default="target/release/photofinish")
    a = p.parse_args()
    ours = [a.binary, "sim", "mille-bornes", "--bots", "heuristic", "--players",
            str(a.players), "--races", str(a.games), "--seed", "1", "--json"]
    peer = [a.python, os.path.join(HERE, "mille_ai_python.py"), a.peer,
            str(a.peer_games), str(a.players)]
    game_ratios, hand_ratios = [], []
    for i in range(a.pairs):
        took, out = timed(ours)
        summary = json.loads(out)
        our_games = summary["games"] / took
        our_hands = summary["rounds"] / took
        ptook, pout = timed(peer)
        hands = int(pout.split("(")[1].split()[0])
        peer_games = a.peer_games / ptook
        peer_hands = hands / ptook
        game_ratios.append(our_games / peer_games)
        hand_ratios.append(our_hands / peer_hands)
        print(f"pair {i + 1}: photofinish {our_games:.0f} games/s ({our_hands:.0f} hands/s), "
              f"peer {peer_games:.2f} games/s ({peer_hands:.1f} hands/s): "
              f"{game_ratios[-1]:.0f}x per game, {hand_ratios[-1]:.0f}x per hand")
    load = os.getloadavg()
    print(f"{a.players} players: median {statistics.median(game_ratios):.0f}x per game, "
          f"{statistics.median(hand_ratios):.0f}x per hand over {a.pairs} pairs "
          f"(load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")


if __name__ == "__main__":
    sys.exit(main())
