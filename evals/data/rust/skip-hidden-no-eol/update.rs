impl Walker {
    // ... existing code ...

    fn is_ignored(&self, path: &Path) -> bool {
        path.file_name()
            .and_then(|n| n.to_str())
            .map_or(false, |name| name.starts_with('.') || self.ignore.iter().any(|i| i == name))
    }

    // ... existing code ...
}
