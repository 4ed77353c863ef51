use std::collections::HashMap;
use std::fmt;
use std::fs::{self, File};
// ... existing code ...
impl Snapshot {
    // ... existing code ...
}

impl fmt::Display for Snapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "snapshot {}: {} files, {} bytes", self.id, self.entries.len(), self.total_size())
    }
}

/// Where file contents end up. A trait so tests can use an in-memory store.
// ... existing code ...
