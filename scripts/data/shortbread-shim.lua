-- Meridian's shim: lets a process script written for tilemaker 3 (global Find(), Layer(), ...
-- and node_function() without arguments, as shortbread-tiles/shortbread-tilemaker's
-- process.lua is) run on Debian 12's tilemaker 2.2, which passes the OSM object to
-- node_function(node), way_function(way) and relation_scan_function(relation) and exposes
-- Find, Layer, ... as that object's methods. Appended after the process script by
-- scripts/data/make-test-tiles.sh.

local current = nil

-- Every method tilemaker 2.2 offers on its OSM object, as a global that calls it on the
-- object being processed.
for _, method in ipairs({
    "Find", "Holds", "Id", "Layer", "LayerAsCentroid", "Attribute", "AttributeNumeric",
    "AttributeBoolean", "MinZoom", "ZOrder", "Area", "Length", "NextRelation",
    "RestartRelations", "FindInRelation", "Accept", "IsClosed", "ScaleRank", "Intersects",
    "AreaIntersecting", "CoveredBy", "FindIntersecting", "FindCovering",
}) do
    _G[method] = function(...) return current[method](current, ...) end
end

local script_node, script_way, script_relation_scan =
    node_function, way_function, relation_scan_function

function node_function(node) current = node; script_node() end
function way_function(way) current = way; script_way() end
if script_relation_scan then
    function relation_scan_function(relation) current = relation; script_relation_scan() end
end

-- tilemaker 2.2 keeps z_order in one signed byte; the Shortbread script also orders by
-- population and area. Small values pass unchanged, larger ones are squeezed on a log scale
-- into 101..127, which keeps their order (coarsely) within a layer.
local ZOrderByte = ZOrder
function ZOrder(value)
    local v = tonumber(value) or 0
    local size = math.abs(v)
    if size > 100 then size = math.min(127, 100 + math.floor(math.log(size / 100, 2) * 3)) end
    size = math.floor(size)
    ZOrderByte(v < 0 and -size or size)
end
