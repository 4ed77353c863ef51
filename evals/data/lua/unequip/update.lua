-- ... existing code ...

function Inventory:equip(item_id)
  -- ... existing code ...
end

function Inventory:unequip(slot)
  local item = self.equipped[slot]
  if not item then
    return false, "nothing equipped"
  end
  if not self:free_slot() then
    return false, "no free slot"
  end
  self.equipped[slot] = nil
  self:add(item, 1)
  events.emit("item_unequipped", self.owner, item, slot)
  return true
end

-- ... existing code ...
