def normalize_path(path):
    """Collapse ids so that /users/42 and /users/43 count as one path."""
    path = path.split("?", 1)[0]
    path = re.sub(r"/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=/|$)", "/:uuid", path)
    return re.sub(r"/\d+(?=/|$)", "/:id", path)
