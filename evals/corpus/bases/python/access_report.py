#!/usr/bin/env python3
"""Summarize web server access logs: requests per status, slowest paths, top clients.

Reads combined-format logs (optionally gzipped) and prints a text or JSON report.
"""

import argparse
import gzip
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median

LINE_RE = re.compile(
    r'(?P<client>\S+) \S+ \S+ \[(?P<time>[^\]]+)\] "(?P<method>[A-Z]+) (?P<path>\S+) [^"]*" '
    r'(?P<status>\d{3}) (?P<size>\d+|-)(?: "[^"]*" "[^"]*")?(?: (?P<duration>\d+\.\d+))?'
)


@dataclass
class Request:
    client: str
    method: str
    path: str
    status: int
    size: int
    duration: float | None


@dataclass
class Report:
    total: int = 0
    malformed: int = 0
    by_status: Counter = field(default_factory=Counter)
    by_client: Counter = field(default_factory=Counter)
    durations: dict = field(default_factory=lambda: defaultdict(list))
    bytes_sent: int = 0

    def add(self, request):
        self.total += 1
        self.by_status[request.status] += 1
        self.by_client[request.client] += 1
        self.bytes_sent += request.size
        if request.duration is not None:
            self.durations[normalize_path(request.path)].append(request.duration)

    def slowest(self, count=10):
        medians = [(median(times), path) for path, times in self.durations.items() if len(times) >= 3]
        return sorted(medians, reverse=True)[:count]

    def error_rate(self):
        if not self.total:
            return 0.0
        errors = sum(n for status, n in self.by_status.items() if status >= 500)
        return errors / self.total

    def to_legacy_csv(self):
        rows = ["status,count"]
        for status, count in sorted(self.by_status.items()):
            rows.append(f"{status},{count}")
        return "\n".join(rows)

    def to_dict(self, top=10):
        return {
            "total": self.total,
            "malformed": self.malformed,
            "error_rate": round(self.error_rate(), 4),
            "bytes_sent": self.bytes_sent,
            "by_status": {str(k): v for k, v in sorted(self.by_status.items())},
            "top_clients": self.by_client.most_common(top),
            "slowest_paths": [{"path": p, "median_s": round(t, 3)} for t, p in self.slowest(top)],
        }


def normalize_path(path):
    """Collapse ids so that /users/42 and /users/43 count as one path."""
    path = path.split("?", 1)[0]
    return re.sub(r"/\d+(?=/|$)", "/:id", path)


def parse_line(line):
    match = LINE_RE.match(line)
    if not match:
        return None
    size = match.group("size")
    duration = match.group("duration")
    return Request(
        client=match.group("client"),
        method=match.group("method"),
        path=match.group("path"),
        status=int(match.group("status")),
        size=0 if size == "-" else int(size),
        duration=float(duration) if duration else None,
    )


def open_log(path):
    if path == "-":
        return sys.stdin
    if str(path).endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


def build_report(paths):
    report = Report()
    for path in paths:
        with open_log(path) as handle:
            for line in handle:
                request = parse_line(line)
                if request is None:
                    report.malformed += 1
                    continue
                report.add(request)
    return report


def format_text(report, top=10):
    lines = [
        f"requests:   {report.total}",
        f"malformed:  {report.malformed}",
        f"error rate: {report.error_rate():.2%}",
        f"bytes sent: {report.bytes_sent}",
        "",
        "status codes:",
    ]
    for status, count in sorted(report.by_status.items()):
        lines.append(f"  {status}  {count}")
    lines.append("")
    lines.append("top clients:")
    for client, count in report.by_client.most_common(top):
        lines.append(f"  {client:<15} {count}")
    slow = report.slowest(top)
    if slow:
        lines.append("")
        lines.append("slowest paths (median):")
        for seconds, path in slow:
            lines.append(f"  {seconds:8.3f}s  {path}")
    return "\n".join(lines)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("logs", nargs="+", help="log files (.gz allowed, - for stdin)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--top", type=int, default=10, help="entries in top lists")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    missing = [p for p in args.logs if p != "-" and not Path(p).exists()]
    if missing:
        print(f"no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    report = build_report(args.logs)
    if args.json:
        print(json.dumps(report.to_dict(args.top), indent=2))
    else:
        print(format_text(report, args.top))
    return 0 if report.total else 1


if __name__ == "__main__":
    sys.exit(main())
