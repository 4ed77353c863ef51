// ... existing code ...
pub trait Store {
    fn contains(&self, digest: &str) -> bool;
    fn put(&mut self, digest: &str, source: &Path) -> Result<()>;
    fn remove(&mut self, digest: &str) -> Result<()>;
    fn name(&self) -> &str;
}
// ... existing code ...
impl Store for DirStore {
    // ... existing methods (contains, put) ...

    fn remove(&mut self, digest: &str) -> Result<()> {
        let target = self.object_path(digest);
        match fs::remove_file(&target) {
            Ok(()) => Ok(()),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(BackupError::Store { path: target, source }),
        }
    }

    fn name(&self) -> &str {
        "dir"
    }
}
// ... existing code ...
