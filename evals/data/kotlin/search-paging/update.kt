// ... existing code ...
data class NoteQuery(
    val text: String? = null,
    val tag: String? = null,
    val pinnedOnly: Boolean = false,
    val limit: Int = 50,
    val offset: Int = 0,
)
// ... existing code ...
interface NoteDao {
    fun observeAll(): Flow<List<NoteEntity>>
    suspend fun findById(id: String): NoteEntity?
    suspend fun search(pattern: String, limit: Int, offset: Int = 0): List<NoteEntity>
    // ... existing code ...
}
// ... existing code ...
        if (query.limit !in 1..500) {
            return@withContext NoteResult.Invalid("limit must be between 1 and 500")
        }
        if (query.offset < 0) {
            return@withContext NoteResult.Invalid("offset must not be negative")
        }
        val pattern = "%${query.text.orEmpty()}%"
        val found = dao.search(pattern, query.limit, query.offset)
// ... existing code ...
