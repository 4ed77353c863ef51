// ... existing code ...

#[cfg(test)]
mod tests {
    use super::*;

    // ... existing tests ...

    #[test]
    fn total_size_sums_entry_sizes() {
        let mut snap = Snapshot::new("s");
        for (name, size) in [("a", 3u64), ("b", 4)] {
            snap.entries.insert(
                PathBuf::from(name),
                FileEntry {
                    path: PathBuf::from(name),
                    size,
                    modified: SystemTime::UNIX_EPOCH,
                    digest: name.to_string(),
                },
            );
        }
        assert_eq!(snap.total_size(), 7);
    }
}
