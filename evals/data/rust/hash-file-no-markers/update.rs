pub fn hash_file(path: &Path) -> Result<String> {
    let read_err = |source| BackupError::Read { path: path.to_path_buf(), source };
    let file = File::open(path).map_err(read_err)?;
    let mut reader = BufReader::with_capacity(CHUNK_SIZE, file);
    let mut hasher = Sha256::new();
    io::copy(&mut reader, &mut hasher).map_err(read_err)?;
    Ok(format!("{:x}", hasher.finalize()))
}
