-- ... existing code ...

function Inventory.deserialize(owner, data, opts)
  local inv = Inventory.new(owner, opts)
  inv.gold = data.gold or 0
  for _, entry in ipairs(data.slots or {}) do
    local item = Item.get(entry.id)
    if item then
      inv.slots[entry.index] = { item = item, count = entry.count }
    end
  end
  -- ... existing code ...
  return inv
end

-- ... existing code ...
