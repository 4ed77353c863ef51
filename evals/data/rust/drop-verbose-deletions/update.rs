// ... existing code ...
pub struct Backup<S: Store> {
    store: S,
}

impl<S: Store> Backup<S> {
    pub fn new(store: S) -> Self {
        Backup { store }
    }

    pub fn snapshot(&mut self, id: &str, walker: &Walker) -> Result<Snapshot> {
        // ... existing code ...
            if !self.store.contains(&digest) {
                self.store.put(&digest, &path)?;
            }
            // ... existing code ...
