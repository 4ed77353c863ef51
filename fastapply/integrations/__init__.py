"""Optional integrations with other engines. Nothing here is imported by `import fastapply`; each module
imports its engine's package (or nothing at all) only when used."""
