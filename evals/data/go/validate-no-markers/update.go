func (in *bookmarkInput) validate() error {
	u, err := url.Parse(in.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("url must be an absolute http(s) URL")
	}
	in.Title = strings.TrimSpace(in.Title)
	if in.Title == "" {
		in.Title = u.Host
	}
	if len(in.Title) > maxTitleLen {
		return errors.New("title is too long")
	}
	seen := make(map[string]bool, len(in.Tags))
	tags := in.Tags[:0]
	for _, tag := range in.Tags {
		tag = strings.ToLower(strings.TrimSpace(tag))
		if tag == "" || seen[tag] {
			continue
		}
		seen[tag] = true
		tags = append(tags, tag)
	}
	if len(tags) > 20 {
		return errors.New("at most 20 tags")
	}
	in.Tags = tags
	return nil
}
