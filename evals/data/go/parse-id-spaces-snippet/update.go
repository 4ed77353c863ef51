func parseID(r *http.Request) (int64, error) {
    id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
    if err != nil {
        return 0, err
    }
    if id <= 0 {
        return 0, errors.New("id must be positive")
    }
    return id, nil
}
