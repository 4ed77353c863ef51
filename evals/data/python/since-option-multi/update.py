import argparse
import gzip
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from statistics import median
# ... keep existing code

@dataclass
class Request:
    client: str
    time: datetime
    method: str
    # ... keep existing code


def parse_line(line):
    match = LINE_RE.match(line)
    if not match:
        return None
    size = match.group("size")
    duration = match.group("duration")
    return Request(
        client=match.group("client"),
        time=datetime.strptime(match.group("time"), "%d/%b/%Y:%H:%M:%S %z"),
        method=match.group("method"),
        # ... keep existing code
    )
# ... keep existing code


def build_report(paths, since=None):
    report = Report()
    for path in paths:
        with open_log(path) as handle:
            for line in handle:
                request = parse_line(line)
                if request is None:
                    report.malformed += 1
                    continue
                if since is not None and request.time < since:
                    continue
                report.add(request)
    return report
# ... keep existing code
    parser.add_argument("--top", type=int, default=10, help="entries in top lists")
    parser.add_argument("--since", type=datetime.fromisoformat,
                        help="only requests at or after this ISO time (with offset)")
    return parser.parse_args(argv)
# ... keep existing code
    report = build_report(args.logs, since=args.since)
# ... keep existing code
