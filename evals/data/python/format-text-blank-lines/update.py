# ... existing code ...
def format_text(report, top=10):
    lines = [
        "== summary ==",
        f"requests:   {report.total}",
        f"malformed:  {report.malformed}",
        f"error rate: {report.error_rate():.2%}",
        f"bytes sent: {report.bytes_sent}",
        "",
        "== status codes ==",
    ]
    for status, count in sorted(report.by_status.items()):
        lines.append(f"  {status}  {count}")
    lines.append("")
    lines.append("== top clients ==")
    for client, count in report.by_client.most_common(top):
        lines.append(f"  {client:<15} {count}")

    slow = report.slowest(top)
    if slow:
        lines.append("")
        lines.append("== slowest paths (median) ==")
        for seconds, path in slow:
            lines.append(f"  {seconds:8.3f}s  {path}")

    return "\n".join(lines)
# ... existing code ...
