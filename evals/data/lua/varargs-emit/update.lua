-- ... existing code ...

local function stack_limit(item)
  return item.max_stack or 1
end

-- Forwards the owner plus any extra arguments (...) to the event bus.
function Inventory:emit(name, ...)
  local argc = select("#", ...)
  if argc == 0 then
    return events.emit(name, self.owner)
  end
  return events.emit(name, self.owner, ...)
end

-- ... existing code ...
  events.emit("item_added", self.owner, item, count)
  return true
end
-- ... existing code ...
