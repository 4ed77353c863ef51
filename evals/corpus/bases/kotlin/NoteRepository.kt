package com.acme.notes.data

import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.map
import kotlinx.coroutines.withContext
import java.time.Instant
import java.util.UUID

data class Note(
    val id: String = UUID.randomUUID().toString(),
    val title: String,
    val body: String,
    val tags: Set<String> = emptySet(),
    val pinned: Boolean = false,
    val updatedAt: Instant = Instant.now(),
)

data class NoteQuery(
    val text: String? = null,
    val tag: String? = null,
    val pinnedOnly: Boolean = false,
    val limit: Int = 50,
)

sealed class NoteResult<out T> {
    data class Success<T>(val value: T) : NoteResult<T>()
    data class NotFound(val id: String) : NoteResult<Nothing>()
    data class Invalid(val reason: String) : NoteResult<Nothing>()
    data class Failure(val error: Throwable) : NoteResult<Nothing>()
}

interface NoteDao {
    fun observeAll(): Flow<List<NoteEntity>>
    suspend fun findById(id: String): NoteEntity?
    suspend fun search(pattern: String, limit: Int): List<NoteEntity>
    suspend fun upsert(entity: NoteEntity)
    suspend fun delete(id: String): Int
}

data class NoteEntity(
    val id: String,
    val title: String,
    val body: String,
    val tagsCsv: String,
    val pinned: Boolean,
    val updatedAtMillis: Long,
)

fun NoteEntity.toNote(): Note = Note(
    id = id,
    title = title,
    body = body,
    tags = tagsCsv.split(',').filter { it.isNotBlank() }.toSet(),
    pinned = pinned,
    updatedAt = Instant.ofEpochMilli(updatedAtMillis),
)

fun Note.toEntity(): NoteEntity = NoteEntity(
    id = id,
    title = title.trim(),
    body = body,
    tagsCsv = tags.sorted().joinToString(","),
    pinned = pinned,
    updatedAtMillis = updatedAt.toEpochMilli(),
)

fun Note.matches(query: NoteQuery): Boolean {
    if (query.pinnedOnly && !pinned) return false
    if (query.tag != null && query.tag !in tags) return false
    val text = query.text ?: return true
    return title.contains(text, ignoreCase = true) || body.contains(text, ignoreCase = true)
}

inline fun <T, R> NoteResult<T>.map(transform: (T) -> R): NoteResult<R> = when (this) {
    is NoteResult.Success -> NoteResult.Success(transform(value))
    is NoteResult.NotFound -> this
    is NoteResult.Invalid -> this
    is NoteResult.Failure -> this
}

class NoteRepository(
    private val dao: NoteDao,
    private val io: CoroutineDispatcher = Dispatchers.IO,
    private val clock: () -> Instant = Instant::now,
) {
    val notes: Flow<List<Note>> = dao.observeAll().map { entities ->
        entities.map { it.toNote() }.sortedWith(compareByDescending<Note> { it.pinned }.thenByDescending { it.updatedAt })
    }

    suspend fun get(id: String): NoteResult<Note> = withContext(io) {
        val entity = dao.findById(id) ?: return@withContext NoteResult.NotFound(id)
        NoteResult.Success(entity.toNote())
    }

    suspend fun search(query: NoteQuery): NoteResult<List<Note>> = withContext(io) {
        if (query.limit !in 1..500) {
            return@withContext NoteResult.Invalid("limit must be between 1 and 500")
        }
        val pattern = "%${query.text.orEmpty()}%"
        val found = dao.search(pattern, query.limit)
            .map { it.toNote() }
            .filter { it.matches(query) }
        NoteResult.Success(found)
    }

    suspend fun save(note: Note): NoteResult<Note> = withContext(io) {
        validate(note)?.let { return@withContext NoteResult.Invalid(it) }
        val stamped = note.copy(updatedAt = clock())
        try {
            dao.upsert(stamped.toEntity())
            NoteResult.Success(stamped)
        } catch (e: Exception) {
            NoteResult.Failure(e)
        }
    }

    suspend fun togglePin(id: String): NoteResult<Note> = withContext(io) {
        val entity = dao.findById(id) ?: return@withContext NoteResult.NotFound(id)
        val updated = entity.toNote().let { it.copy(pinned = !it.pinned, updatedAt = clock()) }
        dao.upsert(updated.toEntity())
        NoteResult.Success(updated)
    }

    suspend fun delete(id: String): NoteResult<Unit> = withContext(io) {
        if (dao.delete(id) == 0) NoteResult.NotFound(id) else NoteResult.Success(Unit)
    }

    private fun validate(note: Note): String? = when {
        note.title.isBlank() -> "title must not be blank"
        note.title.length > MAX_TITLE -> "title is longer than $MAX_TITLE characters"
        note.tags.any { it.contains(',') } -> "tags must not contain commas"
        else -> null
    }

    companion object {
        const val MAX_TITLE = 120
    }
}
