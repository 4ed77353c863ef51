-- ... rest of the code ...
  self.equipped = {}
  self.gold = 0
  self._weight = nil
  return self
end

function Inventory:weight()
  if self._weight then
    return self._weight
  end
  local total = 0
  for _, stack in pairs(self.slots) do
    total = total + stack.item.weight * stack.count
  end
  for _, item in pairs(self.equipped) do
    total = total + item.weight
  end
  self._weight = total
  return total
end

function Inventory:invalidate()
  self._weight = nil
end
-- ... rest of the code ...
  events.emit("item_added", self.owner, item, count)
  self:invalidate()
  return true
end
-- ... rest of the code ...
  events.emit("item_removed", self.owner, stack.item, count)
  self:invalidate()
  return true
end
-- ... rest of the code ...
