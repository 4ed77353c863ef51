"""Issue 8, fifteenth round: real release edits of the fourteenth round's kept-aside batch (now
tune-26) and of half of this round's fresh batch (tune-27), read case by case."""

from __future__ import annotations

from fastapply import apply

CLI = '''import sys


def main():
    args = parse(sys.argv)
    if args.version:
        print(VERSION)
        sys.exit(0)

    print_help()
    sys.exit(-1)
'''


def test_a_new_exit_code_replaces_the_old_exit_under_its_anchor() -> None:
    # pep440's release changed `sys.exit(-1)` to `sys.exit(2)`; the snippet shows that part first,
    # before a marker and the parts above it: the old exit stayed under the new one, dead code
    edit = '''# ... existing code ...
        print(VERSION)
        sys.exit(0)

    print_help()
    sys.exit(2)
# ... existing code ...
def main():
    args = parse(sys.argv)
# ... existing code ...
'''
    assert apply(CLI, edit, filename="cli.py").merged_code == CLI.replace("sys.exit(-1)", "sys.exit(2)")


def test_an_exit_added_before_another_call_is_an_insertion() -> None:
    edit = '''# ... existing code ...
    print_help()
    sys.exit(2)
'''
    assert apply(CLI + "    cleanup()\n", edit + "    cleanup()\n", filename="cli.py").merged_code \
        == CLI.replace("sys.exit(-1)", "sys.exit(2)") + "    cleanup()\n"
