// ... existing code ...
data class Note(
    val id: String = UUID.randomUUID().toString(),
    val title: String,
    val body: String,
    val tags: Set<String> = emptySet(),
    val pinned: Boolean = false,
    val archived: Boolean = false,
    val updatedAt: Instant = Instant.now(),
)
// ... existing code ...
data class NoteEntity(
    val id: String,
    val title: String,
    val body: String,
    val tagsCsv: String,
    val pinned: Boolean,
    val archived: Boolean,
    val updatedAtMillis: Long,
)

fun NoteEntity.toNote(): Note = Note(
    // ... existing code ...
    pinned = pinned,
    archived = archived,
    updatedAt = Instant.ofEpochMilli(updatedAtMillis),
)

fun Note.toEntity(): NoteEntity = NoteEntity(
    // ... existing code ...
    pinned = pinned,
    archived = archived,
    updatedAtMillis = updatedAt.toEpochMilli(),
)
// ... existing code ...
