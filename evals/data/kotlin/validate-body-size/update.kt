    private fun validate(note: Note): String? = when {
        note.title.isBlank() -> "title must not be blank"
        note.title.length > MAX_TITLE -> "title is longer than $MAX_TITLE characters"
        note.body.length > 100_000 -> "body is longer than 100000 characters"
        note.tags.any { it.isBlank() } -> "tags must not be blank"
        note.tags.any { it.contains(',') } -> "tags must not contain commas"
        else -> null
    }
