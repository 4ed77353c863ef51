    private fun validate(note: Note): String? = when {
        note.title.isBlank() -> "title must not be blank"
        note.title.length > MAX_TITLE -> "title is longer than $MAX_TITLE characters"
        note.body.length > MAX_BODY -> "body is longer than $MAX_BODY characters"
        note.tags.any { it.isBlank() } -> "tags must not be blank"
        note.tags.any { it.contains(',') } -> "tags must not contain commas"
        else -> null
    }
