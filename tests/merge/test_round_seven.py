"""Issue 8, seventh round: spacing and file heads that real release edits showed (batch tune-5).

Each case is written in the shape the failing cases had (an OAuth grant gaining a decorator, a
user-info filter, a job store dropping Python 2's head), with names of our own.
"""

from __future__ import annotations

from fastapply import apply

GRANT = '''\
from .errors import InvalidScopeError
from .util import scope_to_list


class RefreshGrant:
    def validate(self):
        token = self.load_token()
        self.check_scope(token)
        self.request.token = token

    def create_response(self):
        """Issue a new access token for the refresh token."""
        token = self.request.token
        self.save(token)
        return 200, token

    def issue(self, user):
        return self.generate(user)
'''


def test_a_new_decorator_stays_glued_to_the_definition_under_it() -> None:
    """A decorator added above a kept method, the snippet writing the blank line above it as
    the file has it. Before, the blank line above the paired `def` line (the file's, between the
    two methods) was given back under the decorator, as if the decorator ended new code."""
    snippet = '''\
from .errors import InvalidScopeError
from .hooks import hooked
from .util import scope_to_list
# ... existing code ...
        self.request.token = token

    @hooked
    def create_response(self):
        """Issue a new access token for the refresh token."""
        # ... existing code ...
'''
    expected = GRANT.replace("from .util", "from .hooks import hooked\nfrom .util") \
        .replace("    def create_response", "    @hooked\n    def create_response")
    assert apply(GRANT, snippet, filename="grants/refresh.py").merged_code == expected


USERINFO = '''\
class UserInfo(dict):
    REGISTERED = [
        "sub",
        "name",
    ]

    def __getattr__(self, key):
        try:
            return object.__getattribute__(self, key)
        except AttributeError:
            return self.get(key)
'''

FILTER = '''\
    def filter(self, scope):
        """Only the claims the scope grants."""
        wanted = [
            claim
            for part in scope.split()
            for claim in self.SCOPES.get(part, [])
        ]
        kept = {
            key: value for key, value in self.items() if key in wanted
        }
        return UserInfo(kept)
'''


def test_a_literal_assigned_right_under_another_stays_glued() -> None:
    """A new method whose body assigns a dict right under the `]` closing a list. Before, the
    `]` read as the end of a sibling definition and `kept = {` as a new one, so a blank line the
    snippet never wrote was put between two statements."""
    snippet = '''\
class UserInfo(dict):
    # ... existing code ...
    ]

''' + FILTER + '''
    def __getattr__(self, key):
        # ... existing code ...
'''
    expected = USERINFO.replace("    ]\n\n", "    ]\n\n" + FILTER + "\n")
    assert apply(USERINFO, snippet, filename="claims.py").merged_code == expected


STORE = '''\
from __future__ import absolute_import

from scheduler.base import BaseStore, LookupFailed, Conflict
from scheduler.util import to_timestamp


class MemoryStore(BaseStore):
    """Keeps jobs in a list in memory."""

    def __init__(self):
        super(MemoryStore, self).__init__()
        self._jobs = []

    def add(self, job):
        stamp = to_timestamp(job.next_run)
        self._jobs.append((job, stamp))

    def remove(self, job_id):
        for index, (job, _) in enumerate(self._jobs):
            if job.id == job_id:
                del self._jobs[index]
                return
        raise LookupFailed(job_id)
'''


def test_a_markerless_snippet_starting_under_python2_future_imports_drops_them() -> None:
    """The whole file back without markers, from an edited first import on: the release dropped
    `from __future__ import absolute_import` (pyupgrade's edit). Before, only a snippet with
    markers elsewhere dropped such a head; a markerless one kept it above its first line."""
    expected = STORE.replace("from __future__ import absolute_import\n\n", "") \
        .replace("BaseStore, LookupFailed, Conflict", "BaseStore, Conflict, LookupFailed") \
        .replace("super(MemoryStore, self).__init__()", "super().__init__()")
    assert apply(STORE, expected, filename="jobstores/memory.py").merged_code == expected


def test_a_markerless_snippet_starting_under_other_code_keeps_it() -> None:
    """The same snippet under a head that is not Python 2's imports: the head stays."""
    original = STORE.replace("from __future__ import absolute_import", "import logging")
    snippet = original.replace("import logging\n\n", "") \
        .replace("BaseStore, LookupFailed, Conflict", "BaseStore, Conflict, LookupFailed")
    merged = apply(original, snippet, filename="jobstores/memory.py").merged_code
    assert merged.startswith("import logging\n\nfrom scheduler.base import BaseStore, Conflict, LookupFailed\n")
