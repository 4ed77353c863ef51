//! Incremental backups: walk a source tree, hash files, and copy the ones whose content changed
//! since the last snapshot into a content-addressed store.

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha2::{Digest, Sha256};
use thiserror::Error;

const CHUNK_SIZE: usize = 64 * 1024;

#[derive(Debug, Error)]
pub enum BackupError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    #[error("cannot write to the store at {path}: {source}")]
    Store { path: PathBuf, source: io::Error },
    #[error("snapshot {0} not found")]
    UnknownSnapshot(String),
}

pub type Result<T> = std::result::Result<T, BackupError>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEntry {
    pub path: PathBuf,
    pub size: u64,
    pub modified: SystemTime,
    pub digest: String,
}

#[derive(Debug, Default)]
pub struct Snapshot {
    pub id: String,
    pub entries: HashMap<PathBuf, FileEntry>,
}

impl Snapshot {
    pub fn new(id: impl Into<String>) -> Self {
        Snapshot { id: id.into(), entries: HashMap::new() }
    }

    pub fn total_size(&self) -> u64 {
        self.entries.values().map(|e| e.size).sum()
    }

    pub fn changed_since<'a>(&'a self, previous: &'a Snapshot) -> impl Iterator<Item = &'a FileEntry> {
        self.entries.values().filter(move |entry| {
            previous
                .entries
                .get(&entry.path)
                .map_or(true, |old| old.digest != entry.digest)
        })
    }
}

/// Where file contents end up. A trait so tests can use an in-memory store.
pub trait Store {
    fn contains(&self, digest: &str) -> bool;
    fn put(&mut self, digest: &str, source: &Path) -> Result<()>;
    fn name(&self) -> &str;
}

pub struct DirStore {
    root: PathBuf,
}

impl DirStore {
    pub fn open(root: impl Into<PathBuf>) -> Result<Self> {
        let root = root.into();
        fs::create_dir_all(&root).map_err(|source| BackupError::Store { path: root.clone(), source })?;
        Ok(DirStore { root })
    }

    fn object_path(&self, digest: &str) -> PathBuf {
        self.root.join(&digest[..2]).join(&digest[2..])
    }
}

impl Store for DirStore {
    fn contains(&self, digest: &str) -> bool {
        self.object_path(digest).exists()
    }

    fn put(&mut self, digest: &str, source: &Path) -> Result<()> {
        let target = self.object_path(digest);
        let store_err = |source| BackupError::Store { path: target.clone(), source };
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(store_err)?;
        }
        fs::copy(source, &target).map_err(store_err)?;
        Ok(())
    }

    fn name(&self) -> &str {
        "dir"
    }
}

pub fn hash_file(path: &Path) -> Result<String> {
    let read_err = |source| BackupError::Read { path: path.to_path_buf(), source };
    let file = File::open(path).map_err(read_err)?;
    let mut reader = BufReader::new(file);
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; CHUNK_SIZE];
    loop {
        let n = reader.read(&mut buffer).map_err(read_err)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(format!("{:x}", hasher.finalize()))
}

pub struct Walker {
    root: PathBuf,
    ignore: Vec<String>,
}

impl Walker {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Walker { root: root.into(), ignore: vec![".git".to_string(), "target".to_string()] }
    }

    pub fn ignore(mut self, name: &str) -> Self {
        self.ignore.push(name.to_string());
        self
    }

    fn is_ignored(&self, path: &Path) -> bool {
        path.file_name()
            .and_then(|n| n.to_str())
            .map_or(false, |name| self.ignore.iter().any(|i| i == name))
    }

    pub fn files(&self) -> Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        let mut pending = vec![self.root.clone()];
        while let Some(dir) = pending.pop() {
            let read_err = |source| BackupError::Read { path: dir.clone(), source };
            for entry in fs::read_dir(&dir).map_err(read_err)? {
                let entry = entry.map_err(read_err)?;
                let path = entry.path();
                if self.is_ignored(&path) {
                    continue;
                }
                if path.is_dir() {
                    pending.push(path);
                } else {
                    out.push(path);
                }
            }
        }
        out.sort();
        Ok(out)
    }
}

pub struct Backup<S: Store> {
    store: S,
    verbose: bool,
}

impl<S: Store> Backup<S> {
    pub fn new(store: S) -> Self {
        Backup { store, verbose: false }
    }

    pub fn verbose(mut self, yes: bool) -> Self {
        self.verbose = yes;
        self
    }

    pub fn snapshot(&mut self, id: &str, walker: &Walker) -> Result<Snapshot> {
        let mut snapshot = Snapshot::new(id);
        for path in walker.files()? {
            let meta = fs::metadata(&path).map_err(|source| BackupError::Read { path: path.clone(), source })?;
            let digest = hash_file(&path)?;
            if !self.store.contains(&digest) {
                self.store.put(&digest, &path)?;
                if self.verbose {
                    println!("stored {} ({} bytes)", path.display(), meta.len());
                }
            }
            let entry = FileEntry {
                path: path.clone(),
                size: meta.len(),
                modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                digest,
            };
            snapshot.entries.insert(path, entry);
        }
        Ok(snapshot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_since_reports_new_and_modified_files() {
        let mut old = Snapshot::new("a");
        let mut new = Snapshot::new("b");
        let entry = |p: &str, d: &str| FileEntry {
            path: PathBuf::from(p),
            size: 1,
            modified: SystemTime::UNIX_EPOCH,
            digest: d.to_string(),
        };
        old.entries.insert(PathBuf::from("x"), entry("x", "1"));
        new.entries.insert(PathBuf::from("x"), entry("x", "2"));
        new.entries.insert(PathBuf::from("y"), entry("y", "3"));
        assert_eq!(new.changed_since(&old).count(), 2);
    }
}
