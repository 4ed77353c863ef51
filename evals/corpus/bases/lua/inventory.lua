-- inventory.lua: player inventory with stacking, weight limits and equipment slots.

local Item = require("game.item")
local events = require("game.events")

local Inventory = {}
Inventory.__index = Inventory

local DEFAULT_SLOTS = 24
local DEFAULT_MAX_WEIGHT = 80.0

local EQUIP_SLOTS = {
  head = true,
  chest = true,
  legs = true,
  main_hand = true,
  off_hand = true,
}

local function clamp(value, low, high)
  if value < low then
    return low
  elseif value > high then
    return high
  end
  return value
end

local function stack_limit(item)
  return item.max_stack or 1
end

function Inventory.new(owner, opts)
  opts = opts or {}
  local self = setmetatable({}, Inventory)
  self.owner = owner
  self.slots = {}
  self.slot_count = opts.slots or DEFAULT_SLOTS
  self.max_weight = opts.max_weight or DEFAULT_MAX_WEIGHT
  self.equipped = {}
  self.gold = 0
  return self
end

function Inventory:weight()
  local total = 0
  for _, stack in pairs(self.slots) do
    total = total + stack.item.weight * stack.count
  end
  for _, item in pairs(self.equipped) do
    total = total + item.weight
  end
  return total
end

function Inventory:free_slot()
  for i = 1, self.slot_count do
    if self.slots[i] == nil then
      return i
    end
  end
  return nil
end

function Inventory:find(item_id)
  for index, stack in pairs(self.slots) do
    if stack.item.id == item_id then
      return index, stack
    end
  end
  return nil
end

function Inventory:add(item, count)
  count = count or 1
  if self:weight() + item.weight * count > self.max_weight then
    return false, "too heavy"
  end

  local remaining = count
  for _, stack in pairs(self.slots) do
    if stack.item.id == item.id and stack.count < stack_limit(item) then
      local moved = math.min(remaining, stack_limit(item) - stack.count)
      stack.count = stack.count + moved
      remaining = remaining - moved
      if remaining == 0 then
        break
      end
    end
  end

  while remaining > 0 do
    local index = self:free_slot()
    if not index then
      events.emit("inventory_full", self.owner, item)
      return false, "no free slot", count - remaining
    end
    local moved = math.min(remaining, stack_limit(item))
    self.slots[index] = { item = item, count = moved }
    remaining = remaining - moved
  end

  events.emit("item_added", self.owner, item, count)
  return true
end

function Inventory:remove(item_id, count)
  count = count or 1
  local index, stack = self:find(item_id)
  if not index then
    return false, "not found"
  end
  if stack.count < count then
    return false, "not enough"
  end
  stack.count = stack.count - count
  if stack.count == 0 then
    self.slots[index] = nil
  end
  events.emit("item_removed", self.owner, stack.item, count)
  return true
end

function Inventory:equip(item_id)
  local index, stack = self:find(item_id)
  if not index then
    return false, "not found"
  end
  local slot = stack.item.slot
  if not EQUIP_SLOTS[slot] then
    return false, "cannot equip"
  end
  local previous = self.equipped[slot]
  self:remove(item_id, 1)
  self.equipped[slot] = stack.item
  if previous then
    self:add(previous, 1)
  end
  return true
end

function Inventory:add_gold(amount)
  self.gold = clamp(self.gold + amount, 0, 999999)
  return self.gold
end

function Inventory:serialize()
  local data = { gold = self.gold, slots = {}, equipped = {} }
  for index, stack in pairs(self.slots) do
    data.slots[#data.slots + 1] = { index = index, id = stack.item.id, count = stack.count }
  end
  for slot, item in pairs(self.equipped) do
    data.equipped[slot] = item.id
  end
  return data
end

function Inventory.deserialize(owner, data)
  local inv = Inventory.new(owner)
  inv.gold = data.gold or 0
  for _, entry in ipairs(data.slots or {}) do
    inv.slots[entry.index] = { item = Item.get(entry.id), count = entry.count }
  end
  for slot, id in pairs(data.equipped or {}) do
    inv.equipped[slot] = Item.get(id)
  end
  return inv
end

Inventory.__tostring = function(self)
  return string.format("Inventory(%s, %d gold, %.1f/%.1f kg)",
    tostring(self.owner), self.gold, self:weight(), self.max_weight)
end

return Inventory
