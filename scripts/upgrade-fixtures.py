#!/usr/bin/env python3
"""Regenerates tests/fixtures/upgrade/: one SQLite database per released schema, written
by that release's own binary, for tests/integration/upgrade.rs.

Each release's binary is built from its commit (a detached worktree, one shared target
dir) unless --bins already holds photofinish-<version>. With it, `photofinish play`
races every game twice, one seat against a bot, with its standard input closed so that
1-second deadlines play the human seat: once to the finish, once killed mid-race (a
running race, as a crash or an upgrade leaves it). The file is then compacted (VACUUM
INTO) and gzipped: <version>.sqlite.gz. Releases with `photofinish export` also get
<version>.results.json: each finished race's result as that release exported it, which
the test compares with today's export.

    scripts/upgrade-fixtures.py [--bins DIR] [--target DIR] [VERSION ...]

Seeds come from the OS, so a regenerated file differs byte for byte; what it holds
(which games, which phases) does not.
"""

import argparse
import gzip
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "upgrade"

# (version, commit, has `photofinish export`, has Magical Athlete's `races=1` and the
# card games' `standing-plays=no`): CHANGELOG.md's dated sections.
RELEASES = [
    ("0.1.0-alpha.1", "3a9823a", False, False),
    ("0.1.0-alpha.2", "3665d92", True, True),
    ("0.1.0-alpha.3", "ab15bed", True, True),
    ("0.1.0", "10245f4", True, True),
]


def games(one_race, running=False):
    """Every game each release knows, with options that keep a race (and the file) short.
    A race to stop mid-way gets the longer trip and no standing plays (which would play
    the human seat at once, not at its deadline), so that it is still running when the
    slowest game has got going. Each release reads these keys alike."""
    athlete = "decision-timeout=0 auto-roll=true" + (" races=1" if one_race else "")
    if running:
        trip = "rounds=1 target-score=0" + (" standing-plays=no" if one_race else "")
    else:
        trip = "rounds=1 target-score=0 target-distance=300"
    return [
        ("dream-mile", ""),
        ("mille-bornes", trip),
        ("1000-yards", trip),
        ("1500m", "" if running else "distance=800"),
        ("magical-athlete", athlete),
    ]


PLAY = ["--players", "2", "--deadline", "1s", "--bots", "random"]


def build(version, commit, target):
    """Builds `commit`'s binary in a throwaway worktree and returns its path."""
    tree = Path(tempfile.mkdtemp(prefix=f"pf-{version}-"))
    tree.rmdir()
    subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", tree, commit], check=True)
    try:
        env = dict(os.environ, CARGO_TARGET_DIR=str(target))
        subprocess.run(["cargo", "build", "--bin", "photofinish"], cwd=tree, env=env, check=True)
        out = Path(target) / f"photofinish-{version}"
        shutil.copy2(Path(target) / "debug" / "photofinish", out)
        return out
    finally:
        subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", tree], check=False)


def play_to_finish(binary, db, game, options, log):
    """One race played to its end; the old binary's own verification must pass."""
    run = subprocess.run(
        [binary, "play", game, "--db", db, "--name", "Finisher", "--options", options, *PLAY],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    log.write(run.stdout + run.stderr)
    if run.returncode != 0 or "Verified:" not in run.stdout:
        sys.exit(f"{binary} play {game}: exit {run.returncode}\n{run.stderr[-2000:]}")


def play_and_kill(binary, db, games, log, steps=2):
    """One race of each game, all at once, killed together once each has resolved `steps`
    steps: left running in the file. Together, because every process ticks every race's
    deadlines: a race killed alone would be played on by the next one."""
    before = max_id(db)
    procs = []
    for game, options in games:
        procs.append(
            subprocess.Popen(
                [binary, "play", game, "--db", db, "--name", "Runner", "--options", options,
                 *PLAY],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        )
        # One at a time, each once the last has resolved a step: each names its channel
        # by the millisecond, and the quick games start last.
        while steps_of(db, before).get(before + len(procs), 0) < 1:
            if procs[-1].poll() is not None:
                sys.exit(f"{binary} play {game}: exit {procs[-1].returncode}")
            time.sleep(0.05)
    deadline = time.monotonic() + 600
    try:
        while time.monotonic() < deadline:
            time.sleep(0.1)
            if any(p.poll() is not None for p in procs):
                sys.exit(f"{binary} play: a race ended before it could be stopped")
            if all(s >= steps for s in steps_of(db, before).values()):
                break
        else:
            sys.exit(f"{binary} play: no {steps} steps in 600 s")
    finally:
        for p in procs:
            p.send_signal(signal.SIGKILL)
        for p in procs:
            p.wait()
    c = sqlite3.connect(db, timeout=10)
    phases = c.execute("SELECT id, kind, phase FROM campaigns WHERE id > ?", (before,)).fetchall()
    c.close()
    if len(phases) != len(games) or any(ph != "running" for _, _, ph in phases):
        sys.exit(f"{binary} play: stopped races are {phases}")


def max_id(db):
    if not Path(db).exists():
        return 0
    c = sqlite3.connect(db, timeout=10)
    try:
        return c.execute("SELECT COALESCE(MAX(id), 0) FROM campaigns").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        c.close()


def steps_of(db, after):
    """Each race numbered above `after`: its steps resolved."""
    try:
        c = sqlite3.connect(db, timeout=10)
        rows = c.execute("SELECT id, step FROM campaigns WHERE id > ?", (after,)).fetchall()
        c.close()
        return dict(rows)
    except sqlite3.OperationalError:
        return {}


def results(binary, db):
    """Each finished race's result, as the old binary exports it."""
    c = sqlite3.connect(db, timeout=10)
    ids = [r[0] for r in c.execute("SELECT id FROM campaigns WHERE phase = 'finished'")]
    c.close()
    out = {}
    for i in ids:
        run = subprocess.run(
            [binary, "export", str(i), "--database", db],
            capture_output=True,
            text=True,
            check=True,
        )
        out[str(i)] = json.loads(run.stdout)["result"]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bins", type=Path, help="prebuilt photofinish-<version> binaries")
    ap.add_argument("--target", type=Path, default=ROOT / "target" / "old-releases")
    ap.add_argument("versions", nargs="*")
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for version, commit, exports, one_race in RELEASES:
        if args.versions and version not in args.versions:
            continue
        binary = args.bins / f"photofinish-{version}" if args.bins else None
        if binary is None or not binary.exists():
            binary = build(version, commit, args.target)
        with tempfile.TemporaryDirectory() as tmp:
            db = str(Path(tmp) / "race.db")
            # Kept: the old binaries' output, for when a run fails.
            log_path = Path(tempfile.gettempdir()) / f"upgrade-fixtures-{version}.log"
            with open(log_path, "w") as log:
                for game, options in games(one_race):
                    print(f"{version}: {game}, to the finish", flush=True)
                    play_to_finish(binary, db, game, options, log)
                print(f"{version}: every game, stopped mid-race", flush=True)
                play_and_kill(binary, db, games(one_race, running=True)[::-1], log)
            if exports:
                text = json.dumps(results(binary, db), indent=1, ensure_ascii=False)
                (OUT / f"{version}.results.json").write_text(text + "\n")
            packed = Path(tmp) / "packed.db"
            c = sqlite3.connect(db, timeout=10)
            c.execute("VACUUM INTO ?", (str(packed),))
            c.close()
            # Gzipped: the announcements' JSON is most of the file and shrinks tenfold.
            target = OUT / f"{version}.sqlite.gz"
            with open(packed, "rb") as src, open(target, "wb") as raw:
                with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
                    shutil.copyfileobj(src, gz)
        print(f"{version}: {target.relative_to(ROOT)}, {target.stat().st_size} bytes", flush=True)


if __name__ == "__main__":
    main()
