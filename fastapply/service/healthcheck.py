"""`python -m fastapply.service.healthcheck`: exit 0 when the local service answers /healthz.

For container health checks (the slim image has no curl). Reads FASTAPPLY_PORT like the service.
"""

from __future__ import annotations

import os
import sys
import urllib.request


def main() -> int:
    url = f"http://127.0.0.1:{os.environ.get('FASTAPPLY_PORT', '8000')}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return 0 if response.status == 200 else 1
    except OSError as exc:
        print(f"fastapply healthcheck: {url}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
