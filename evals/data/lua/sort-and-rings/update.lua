-- ... requires and constants unchanged ...

local EQUIP_SLOTS = {
  head = true,
  chest = true,
  legs = true,
  main_hand = true,
  off_hand = true,
  ring = true,
}

-- ... rest of the file unchanged until add_gold ...

function Inventory:sort()
  local stacks = {}
  for _, stack in pairs(self.slots) do
    stacks[#stacks + 1] = stack
  end
  table.sort(stacks, function(a, b)
    if a.item.name == b.item.name then
      return a.count > b.count
    end
    return a.item.name < b.item.name
  end)
  self.slots = {}
  for index, stack in ipairs(stacks) do
    self.slots[index] = stack
  end
end

function Inventory:add_gold(amount)
-- ... existing code ...
