// ... existing code ...

Inventory.__tostring = function(self)
  return string.format("Inventory(%s, %d/%d slots, %d gold, %.1f/%.1f kg)",
    tostring(self.owner), #self, self.slot_count, self.gold, self:weight(), self.max_weight)
end

Inventory.__len = function(self)
  local used = 0
  for _ in pairs(self.slots) do
    used = used + 1
  end
  return used
end

return Inventory
