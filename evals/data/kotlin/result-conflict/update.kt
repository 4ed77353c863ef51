// ... existing code ...

sealed class NoteResult<out T> {
    data class Success<T>(val value: T) : NoteResult<T>()
    data class NotFound(val id: String) : NoteResult<Nothing>()
    data class Invalid(val reason: String) : NoteResult<Nothing>()
    data class Conflict(val id: String, val current: Note) : NoteResult<Nothing>()
    data class Failure(val error: Throwable) : NoteResult<Nothing>()
}

// ... existing code ...

inline fun <T, R> NoteResult<T>.map(transform: (T) -> R): NoteResult<R> = when (this) {
    is NoteResult.Success -> NoteResult.Success(transform(value))
    is NoteResult.NotFound -> this
    is NoteResult.Invalid -> this
    is NoteResult.Conflict -> this
    is NoteResult.Failure -> this
}

// ... existing code ...
