impl<S: Store> Backup<S> {
    // ... existing code ...

    pub fn snapshot(&mut self, id: &str, walker: &Walker, previous: Option<&Snapshot>) -> Result<Snapshot> {
        let mut snapshot = Snapshot::new(id);
        for path in walker.files()? {
            let meta = fs::metadata(&path).map_err(|source| BackupError::Read { path: path.clone(), source })?;
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            let unchanged = previous
                .and_then(|p| p.entries.get(&path))
                .filter(|old| old.size == meta.len() && old.modified == modified);
            let digest = match unchanged {
                Some(old) => old.digest.clone(),
                None => hash_file(&path)?,
            };
            if !self.store.contains(&digest) {
                // ... existing code ...
            }
            let entry = FileEntry {
                path: path.clone(),
                size: meta.len(),
                modified,
                digest,
            };
            snapshot.entries.insert(path, entry);
        }
        Ok(snapshot)
    }
}
// ... existing code ...
