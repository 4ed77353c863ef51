// ... existing code ...
object Clock {
  val system: Clock = () => Instant.now()

  def fixed(at: Instant): Clock = () => at
}
// ... existing code ...
