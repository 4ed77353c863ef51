function Inventory:remove(item_id, count)
  count = count or 1
  local available, item = 0, nil
  for _, stack in pairs(self.slots) do
    if stack.item.id == item_id then
      available = available + stack.count
      item = stack.item
    end
  end
  if not item then
    return false, "not found"
  end
  if available < count then
    return false, "not enough"
  end

  local remaining = count
  for index, stack in pairs(self.slots) do
    if remaining == 0 then
      break
    end
    if stack.item.id == item_id then
      local taken = math.min(remaining, stack.count)
      stack.count = stack.count - taken
      remaining = remaining - taken
      if stack.count == 0 then
        self.slots[index] = nil
      end
    end
  end
  events.emit("item_removed", self.owner, item, count)
  return true
end
