"""Site-building logic that is plain Python (testable without MkDocs).

``hooks/`` holds the thin MkDocs adapters; this package holds what they call, so the
MkDocs-specific surface stays small (Material for MkDocs reaches end of life in May 2027).
"""
