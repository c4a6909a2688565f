#!/usr/bin/env python3
"""`explore --jobs 1` against `--jobs 2`: wall and CPU time, interleaved (issue 30's bar).

    just bench-jobs                   # every fixture below, 3 repetitions
    just bench-jobs 1 four-calls-unload
    python3 tools/bench-jobs.py --reps 1 four-calls-unload race-N4-U1

For each fixture and repetition it runs `webmcp-sim explore --witnesses-as-found` (the search
alone) with `--jobs 1`, then with `--jobs 2`, under /usr/bin/time, and prints one row per run:
wall and CPU (user + system) seconds, the 1-minute load average before the run, and the
report's choice points, outcomes, work items and whether it was complete. Then, per fixture, the median wall
and CPU of each job count and the speedup (median wall of 1 job / median wall of 2).

Fixtures: fixtures/bench/*.jsonc, fixtures/bench/n-calls/*.jsonc, 300 sequential registrations
(generated into /tmp), and the Promela race
race-N4-U1 (sim-scenarios/ beside ../shared/anchors/promela/timing.py; set PROMELA_SCENARIOS to
its folder) with `--max-states 20000000`. Timings mean something only on an idle machine: the
load average column says whether it was.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import time

SIM = os.environ.get("WEBMCP_SIM", "target/release/webmcp-sim")
PROMELA = os.environ.get("PROMELA_SCENARIOS", "/work/shared/anchors/promela/sim-scenarios")


def sequential_registrations(n=300):
    """A generated scenario: one script making n registerTool calls (issue 30's case for
    `--jobs 2` staying near one job's cost: n - 1 choice points, one lane explored from each)."""
    path = f"/tmp/bench-jobs-sequential-{n}.jsonc"
    tool = lambda i: {"name": f"t{i}", "description": f"t{i}", "execute": {"result": {"resolve": "ok"}}}
    script = [{"registerTool": {"tool": tool(i)}} for i in range(n)]
    scenario = {
        "version": 1,
        "name": f"sequential-{n}",
        "description": f"{n} registerTool calls in one script",
        "tabs": [{"id": "top", "url": "https://a.example/", "script": script}],
    }
    with open(path, "w") as f:
        json.dump(scenario, f)
    return path


def fixtures():
    out = [(os.path.basename(p)[:-6], p, []) for p in sorted(glob.glob("fixtures/bench/*.jsonc"))]
    out += [("n-calls/" + os.path.basename(p)[:-6], p, []) for p in sorted(glob.glob("fixtures/bench/n-calls/*.jsonc"))]
    out.append(("sequential-300", sequential_registrations(), []))
    race = os.path.join(PROMELA, "race-N4-U1.jsonc")
    if os.path.exists(race):
        out.append(("race-N4-U1", race, ["--max-states", "20000000"]))
    return out


def run(path, extra, jobs, keep=None):
    load = os.getloadavg()[0]
    cmd = [SIM, "explore", path, "--witnesses-as-found", "--jobs", str(jobs)] + extra
    t0 = time.time()
    p = subprocess.run(["/usr/bin/time", "-f", "TIME %U %S"] + cmd, capture_output=True, text=True)
    wall = time.time() - t0
    m = re.search(r"TIME ([\d.]+) ([\d.]+)", p.stderr)
    cpu = float(m.group(1)) + float(m.group(2)) if m else float("nan")
    text = p.stdout
    if keep:
        with open(keep, "w") as f:
            f.write(text)
    states = re.search(r"searched: ([\d,]+) choice points", text)
    items = re.search(r"transitions, ([\d,]+) work items", text)
    outcomes = re.search(r"distinct outcomes: ([\d,]+)", text)
    complete = "complete: every schedule was covered" in text
    return {
        "wall": wall,
        "cpu": cpu,
        "load": load,
        "states": states.group(1) if states else "?",
        "outcomes": outcomes.group(1) if outcomes else "?",
        "items": items.group(1) if items else "?",
        "complete": complete,
        "rc": p.returncode,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--keep", help="a folder to keep each run's report in (NAME-jJOBS-rREP.txt)")
    ap.add_argument("only", nargs="*", help="fixture names (as printed) to run; none: every one")
    args = ap.parse_args()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    rows = {}
    print(f"{'fixture':28} {'jobs':>4} {'wall s':>8} {'cpu s':>8} {'load':>5} {'states':>12} {'outcomes':>8} {'items':>7} complete")
    for name, path, extra in fixtures():
        if args.only and name not in args.only:
            continue
        for rep in range(args.reps):
            for jobs in (1, 2):
                keep = args.keep and os.path.join(args.keep, f"{name.replace('/', '-')}-j{jobs}-r{rep}.txt")
                r = run(path, extra, jobs, keep)
                rows.setdefault((name, jobs), []).append(r)
                print(
                    f"{name:28} {jobs:>4} {r['wall']:8.2f} {r['cpu']:8.2f} {r['load']:5.2f} {r['states']:>12} "
                    f"{r['outcomes']:>8} {r['items']:>7} {r['complete']}" + ("" if r["rc"] in (0, 1) else f" (exit {r['rc']})"),
                    flush=True,
                )
    print()
    print(f"{'fixture':28} {'wall 1':>8} {'wall 2':>8} {'cpu 1':>8} {'cpu 2':>8} {'speedup':>8} {'load max':>8}")
    names = sorted({name for name, _ in rows}, key=lambda n: [f[0] for f in fixtures()].index(n))
    for name in names:
        one, two = rows[(name, 1)], rows[(name, 2)]
        med = lambda rs, k: statistics.median(r[k] for r in rs)
        load = max(r["load"] for r in one + two)
        speedup = med(one, "wall") / max(med(two, "wall"), 1e-9)
        print(
            f"{name:28} {med(one, 'wall'):8.2f} {med(two, 'wall'):8.2f} {med(one, 'cpu'):8.2f} "
            f"{med(two, 'cpu'):8.2f} {speedup:8.2f} {load:8.2f}"
        )


if __name__ == "__main__":
    main()
