"""Which language a file is in: from the caller, the filename, or the content.

Placeholder table; the grammar registry (grammars/*.toml) replaces it with the full entries.
"""

from __future__ import annotations

from pathlib import PurePath

_EXTENSIONS = {
    ".py": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "jsx",
    ".ts": "typescript", ".tsx": "tsx", ".rs": "rust", ".go": "go", ".java": "java", ".c": "c",
    ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".rb": "ruby",
    ".php": "php", ".kt": "kotlin", ".swift": "swift", ".scala": "scala", ".lua": "lua", ".sh": "bash",
    ".html": "html", ".css": "css", ".json": "json", ".yaml": "yaml", ".yml": "yaml",
}


def detect_language(filename: str | None = None, content: str | None = None,
                    language: str | None = None) -> str | None:
    if language:
        return language.lower()
    if filename:
        return _EXTENSIONS.get(PurePath(filename).suffix.lower())
    return None
