"""The main thread's long tasks on a cold load, and what each one is.

Opens a page in a fresh profile (service worker allowed, idle start as shipped, CPU slowed 4x as
Lighthouse's mobile run does), records a Chrome trace of the load and the next seconds, and lists
every task of the page's main thread that ran longer than 50 ms, with the work inside it: style
recalculation, layout, parsing, and each script by its file. Total blocking time here is the sum
of each long task's time past 50 ms, from load start to the end of the recording (Lighthouse
counts only up to Time to Interactive, and simulates its timings). The plain MkDocs + Material
twin of the same page, in the same run, is the anchor.

Run: ``.venv/bin/python -m benchmarks.long_tasks [--site-dir DIR] [--page PATH] [--seconds 8] [--runs 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path

from benchmarks.bench_site_build import plain_twin, timed_build
from benchmarks.host_server import HostServer
from benchmarks.site_pages import copy_or_build_site
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

LONG_TASK_MS = 50.0
CATEGORIES = "devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing,loading"
# Trace event names, by what a reader of the table calls them.
KINDS = {
    "UpdateLayoutTree": "style",
    "RecalculateStyles": "style",
    "Layout": "layout",
    "ParseHTML": "parse HTML",
    "ParseAuthorStyleSheet": "parse CSS",
    "Paint": "paint",
    "PrePaint": "paint",
    "Layerize": "paint",
    "v8.compile": "compile",
    "v8.compileModule": "compile",
    "MajorGC": "GC",
    "MinorGC": "GC",
    "V8.GCFinalizeMC": "GC",
}
SCRIPT_EVENTS = (
    "EvaluateScript",
    "FunctionCall",
    "TimerFire",
    "FireAnimationFrame",
    "FireIdleCallback",
    "EventDispatch",
    "v8.evaluateModule",
)


def main_thread(events: list[dict]) -> tuple[int, int]:
    """The (pid, tid) of the page's renderer main thread."""
    for event in events:
        if event.get("name") == "thread_name" and event.get("args", {}).get("name") == "CrRendererMain":
            # The first renderer with a navigation; the blank start page has none.
            pid, tid = event["pid"], event["tid"]
            if any(e.get("pid") == pid and e.get("name") == "ParseHTML" for e in events):
                return pid, tid
    raise SystemExit("long_tasks: no renderer main thread in the trace")


def script_name(event: dict) -> str:
    data = event.get("args", {}).get("data", {})
    url = data.get("url") or data.get("scriptName") or data.get("functionName") or ""
    name = url.rsplit("/", 1)[-1] or event["name"]
    return f"script {name}" if url else event["name"]


def long_tasks(trace: dict) -> list[dict]:
    """Each main-thread task over ``LONG_TASK_MS``: start (ms from navigation), duration (ms), the
    milliseconds of each kind of work nested in it (each event's own time) and the kB of each
    download whose bytes arrived on the main thread during it."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    pid, tid = main_thread(events)
    own = [e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("ph") == "X" and "dur" in e]
    starts = [e["ts"] for e in events if e.get("pid") == pid and e.get("name") == "navigationStart"]
    origin = min(starts) if starts else min(e["ts"] for e in own)
    # Bytes of a download arriving on the main thread (a preload's body does), by file.
    urls = {
        e["args"]["data"]["requestId"]: e["args"]["data"].get("url", "")
        for e in events
        if e.get("name") == "ResourceSendRequest" and "data" in e.get("args", {})
    }
    received = [
        e for e in events if e.get("pid") == pid and e.get("tid") == tid and e.get("name") == "ResourceReceivedData"
    ]
    tasks = [
        e for e in own if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask") and e["dur"] > LONG_TASK_MS * 1000
    ]
    found = []
    for task in sorted(tasks, key=lambda e: e["ts"]):
        end = task["ts"] + task["dur"]
        counted = sorted(
            (
                e
                for e in own
                if e is not task
                and task["ts"] <= e["ts"]
                and e["ts"] + e["dur"] <= end
                and (e["name"] in KINDS or e["name"] in SCRIPT_EVENTS)
            ),
            key=lambda e: (e["ts"], -e["dur"]),
        )
        # Self time: each event's duration less that of the counted events nested in it, found
        # with a stack of the enclosing events.
        self_us = {id(e): float(e["dur"]) for e in counted}
        stack: list[dict] = []
        for event in counted:
            while stack and stack[-1]["ts"] + stack[-1]["dur"] < event["ts"] + event["dur"]:
                stack.pop()
            if stack:
                self_us[id(stack[-1])] -= event["dur"]
            stack.append(event)
        parts: dict[str, float] = defaultdict(float)
        for event in counted:
            kind = KINDS.get(event["name"]) or script_name(event)
            parts[kind] += max(0.0, self_us[id(event)] / 1000)
        received_kb: dict[str, float] = defaultdict(float)
        for event in received:
            if task["ts"] <= event["ts"] <= end:
                name = urls.get(event["args"]["data"].get("requestId"), "").rsplit("/", 1)[-1] or "a file"
                received_kb[name] += event["args"]["data"].get("encodedDataLength", 0) / 1000
        found.append(
            {
                "start_ms": (task["ts"] - origin) / 1000,
                "ms": task["dur"] / 1000,
                "parts": dict(parts),
                "received_kB": dict(received_kb),
            }
        )
    return found


def work_counts(trace: dict) -> tuple[int, int]:
    """Elements whose style was computed and layout objects laid out on the main thread, summed
    over the recording: the work itself, which a busy machine does not change (its time it does)."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    pid, tid = main_thread(events)
    styled = laid_out = 0
    for event in events:
        if event.get("pid") != pid or event.get("tid") != tid or event.get("ph") != "X":
            continue
        if event["name"] == "UpdateLayoutTree":
            styled += event.get("args", {}).get("elementCount", 0)
        elif event["name"] == "Layout":
            laid_out += event.get("args", {}).get("beginData", {}).get("dirtyObjects", 0)
    return styled, laid_out


def record(browser, url: str, *, seconds: float, cpu: float) -> dict:
    context = browser.new_context(service_workers="allow", viewport={"width": 412, "height": 823})
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "trace.json"
        browser.start_tracing(page=page, path=str(path), categories=CATEGORIES.split(","))
        page.goto(url, wait_until="load")
        page.wait_for_timeout(seconds * 1000)
        browser.stop_tracing()
        trace = json.loads(path.read_text(encoding="utf-8"))
    context.close()
    return trace


def blocking_ms(tasks: list[dict]) -> float:
    return sum(task["ms"] - LONG_TASK_MS for task in tasks)


def describe(task: dict) -> str:
    parts = sorted(task["parts"].items(), key=lambda item: -item[1])
    text = ", ".join(f"{name} {ms:.0f}" for name, ms in parts if ms >= 5)
    downloads = ", ".join(f"{kb:.0f} kB of {name}" for name, kb in task["received_kB"].items() if kb >= 1)
    return "; ".join(part for part in (text, downloads and f"received {downloads}") if part)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site-dir", type=Path, help="an already built site (default: build one)")
    parser.add_argument("--page", default="calculators/decode-speed-of-light/")
    parser.add_argument("--seconds", type=float, default=8.0, help="recorded after load")
    parser.add_argument("--cpu", type=float, default=4.0, help="CPU slow-down")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-plain", action="store_true", help="skip the plain Material twin")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="another built site, measured interleaved with the first (an A/B in one run)",
    )
    args = parser.parse_args(argv)
    load_at_start = os.getloadavg()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp_dir = Path(tmp)
        site = tmp_dir / "site"
        copy_or_build_site(site, args.site_dir)
        servers = {"site": site}
        for other in args.also:
            name, _, folder = other.partition("=")
            servers[name] = Path(folder)
        if not args.no_plain:
            plain_site = tmp_dir / "plain-site"
            timed_build(plain_twin(tmp_dir / "plain"), plain_site)
            servers["plain Material"] = plain_site
        totals: dict[str, list[float]] = defaultdict(list)
        work: dict[str, list[tuple[int, int]]] = defaultdict(list)
        last: dict[str, list[dict]] = {}
        from contextlib import ExitStack

        with ExitStack() as stack, sync_playwright() as playwright:
            urls = {name: stack.enter_context(HostServer(root)).url + args.page for name, root in servers.items()}
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(args.runs):
                for name, url in urls.items():
                    trace = record(browser, url, seconds=args.seconds, cpu=args.cpu)
                    tasks = long_tasks(trace)
                    totals[name].append(blocking_ms(tasks))
                    work[name].append(work_counts(trace))
                    last[name] = tasks
            browser.close()

    print(
        f"Main-thread long tasks (> {LONG_TASK_MS:.0f} ms), {args.page}, cold, CPU {args.cpu:g}x slower, last of {args.runs} runs"
    )
    for name, tasks in last.items():
        print(f"\n{name}: {len(tasks)} long tasks")
        for task in tasks:
            print(f"  at {task['start_ms']:7.0f} ms  {task['ms']:6.0f} ms  {describe(task)}")
    print(f"\nBlocking time (sum over long tasks of the time past {LONG_TASK_MS:.0f} ms), median of {args.runs}:")
    for name, values in totals.items():
        print(f"  {name:16}{statistics.median(values):8.0f} ms   (runs: {', '.join(f'{v:.0f}' for v in values)})")
    print("Work on the main thread, median of the runs (counts of work, which a busy machine changes less than times):")
    for name, counts in work.items():
        styled = statistics.median(c[0] for c in counts)
        laid_out = statistics.median(c[1] for c in counts)
        print(f"  {name:16}{styled:8.0f} elements styled, {laid_out:8.0f} layout objects laid out")
    print(
        f"Load average (1, 5, 15 min): {', '.join(f'{v:.2f}' for v in load_at_start)} at the start, "
        f"{', '.join(f'{v:.2f}' for v in os.getloadavg())} at the end"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
