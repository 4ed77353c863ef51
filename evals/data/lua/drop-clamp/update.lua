-- ... existing code ...
  off_hand = true,
}

local function stack_limit(item)
  return item.max_stack or 1
end
-- ... existing code ...
function Inventory:add_gold(amount)
  self.gold = math.max(0, math.min(self.gold + amount, 999999))
  return self.gold
end
-- ... existing code ...
