    // ... existing code ...

    suspend fun togglePin(id: String, pinned: Boolean? = null): NoteResult<Note> = withContext(io) {
        val entity = dao.findById(id) ?: return@withContext NoteResult.NotFound(id)
        val note = entity.toNote()
        val updated = note.copy(pinned = pinned ?: !note.pinned, updatedAt = clock())
        dao.upsert(updated.toEntity())
        NoteResult.Success(updated)
    }

    // ... existing code ...
