// ... existing code ...
    updatedAtMillis = updatedAt.toEpochMilli(),
)

// remove Note.matches(): the DAO query filters now

inline fun <T, R> NoteResult<T>.map(transform: (T) -> R): NoteResult<R> = when (this) {
// ... existing code ...
        val pattern = "%${query.text.orEmpty()}%"
        val found = dao.search(pattern, query.limit).map { it.toNote() }
        NoteResult.Success(found)
    }
// ... existing code ...
