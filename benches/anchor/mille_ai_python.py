#!/usr/bin/env python2
"""Times the public Python 2 Mille Bornes program `elliotkendall/mille-ai`, the anchor for
1000 miles (`photofinish sim mille-bornes --bots heuristic`; see docs/performance.md).

    git clone https://github.com/elliotkendall/mille-ai /tmp/mille-ai
    python2 benches/anchor/mille_ai_python.py /tmp/mille-ai 200 2
    python2 benches/anchor/mille_ai_python.py /tmp/mille-ai 200 4

Plays N whole games (to the peer's 5,000 points, its `Game.pointsToWin`) with the peer's
own AI in every seat (BasicAI, its sample player, unless a fourth argument names another
class of mille.sampleais or mille.elliotai), 2 players or 4 in two teams, exactly as its
play.py runs them (`Game(players).play()`), and prints games/s and hands/s.
"""
import random
import sys
import time

if len(sys.argv) < 3:
    sys.exit(__doc__)
sys.path.insert(0, sys.argv[1])
from mille.game import Game  # noqa: E402  (the peer's own modules)
from mille import sampleais, elliotai  # noqa: E402

n = int(sys.argv[2])
players = int(sys.argv[3]) if len(sys.argv) > 3 else 2
name = sys.argv[4] if len(sys.argv) > 4 else "BasicAI"
ai = getattr(sampleais, name, None) or getattr(elliotai, name)

# Count hands without changing how a game is played.
hands = [0]
play_hand = Game.playHand


def counted(self):
    hands[0] += 1
    play_hand(self)


Game.playHand = counted
random.seed(1)
start = time.time()
for _ in range(n):
    Game([ai() for _ in range(players)]).play()
took = time.time() - start
print("%d players, %s in every seat: %d games (%d hands) in %.2fs = %.1f games/s, %.1f hands/s"
      % (players, name, n, hands[0], took, n / took, hands[0] / took))
