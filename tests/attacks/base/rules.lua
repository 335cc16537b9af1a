-- rules.lua: the base rules unchanged (attacks replace this file).
return require("baserules")
