-- Drives a headless Neovim (0.7+) that was started with editors/neovim/sdformat.lua
-- against the real sdformat-lsp, and writes what it saw as JSON for test_neovim.py.
--
-- Environment:
--   SDFORMAT_NVIM_OUT         where to write the JSON results
--   SDFORMAT_NVIM_BROKEN      a copy of examples/broken_arm.sdf
--   SDFORMAT_NVIM_ARM         a copy of examples/arm.sdf
--   SDFORMAT_NVIM_TIMEOUT_MS  bound of every wait (default 20000)
--   SDFORMAT_NVIM_BUDGET_MS   no new step starts after this long (default 90000)
--
-- Every wait is bounded; every step records its own error and the next steps still run,
-- unless the server never attached (then they are skipped); Neovim always quits at the end.

local TIMEOUT = tonumber(os.getenv('SDFORMAT_NVIM_TIMEOUT_MS') or '') or 20000
local BUDGET = tonumber(os.getenv('SDFORMAT_NVIM_BUDGET_MS') or '') or 90000
local uv = vim.uv or vim.loop

local R = {
  version = vim.fn.execute('version'):match('NVIM v[%w%.%-+]+'),
  errors = {},
  api = package.loaded['sdformat'] and package.loaded['sdformat'].api or nil,
  log_path = vim.lsp.get_log_path and vim.lsp.get_log_path() or nil,
}
pcall(vim.lsp.set_log_level, 'warn')
vim.o.hidden = true -- switch buffers with unsaved edits

local function now_ms()
  return uv.hrtime() / 1e6
end
local T0 = now_ms()
local abort = nil -- why the remaining steps are skipped

local function clients(buf)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end

local function wait_client(buf)
  local started = now_ms()
  local ok = vim.wait(TIMEOUT, function()
    local cs = clients(buf)
    return #cs > 0 and cs[1].initialized == true
  end, 20)
  local cs = clients(buf)
  return {
    attached = ok,
    ms = math.floor(now_ms() - started),
    names = vim.tbl_map(function(c)
      return c.name
    end, cs),
  }
end

local function diag_code(d)
  if d.code ~= nil then
    return d.code
  end
  return d.user_data and d.user_data.lsp and d.user_data.lsp.code or nil
end

local function diags(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out, {
      lnum = d.lnum,
      col = d.col,
      end_lnum = d.end_lnum,
      end_col = d.end_col,
      severity = d.severity,
      code = diag_code(d),
      message = d.message,
    })
  end
  table.sort(out, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return out
end

local function has_code(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if diag_code(d) == code then
      return true
    end
  end
  return false
end

-- One request to the buffer's sdformat client; returns result, error text.
local function request(buf, method, params, timeout)
  local res, err = vim.lsp.buf_request_sync(buf, method, params, timeout or TIMEOUT)
  if not res then
    return nil, 'no response: ' .. tostring(err)
  end
  for _, r in pairs(res) do
    local e = r.err or r.error
    if e then
      return nil, vim.inspect(e)
    end
    if r.result == vim.NIL then
      return nil, nil
    end
    return r.result, nil
  end
  return nil, 'no client answered'
end

local PROVIDER = {
  ['textDocument/hover'] = 'hoverProvider',
  ['textDocument/definition'] = 'definitionProvider',
  ['textDocument/completion'] = 'completionProvider',
}

-- Fails at once when the server does not advertise the method (Neovim would not even send it).
local function require_capability(buf, method)
  local c = clients(buf)[1]
  local caps = c and c.server_capabilities or {}
  local v = caps[PROVIDER[method]]
  if v == nil or v == false or v == vim.NIL then
    error('the server does not advertise ' .. PROVIDER[method] .. ' (capabilities: ' .. vim.inspect(vim.tbl_keys(caps)) .. ')')
  end
end

-- Repeat a request until it has a non-empty answer (the server may still be analysing), bounded.
local function poll(buf, method, params, nonempty)
  require_capability(buf, method)
  local deadline = now_ms() + TIMEOUT
  local attempts, result, err = 0, nil, nil
  while true do
    attempts = attempts + 1
    result, err = request(buf, method, params, math.max(100, deadline - now_ms()))
    if result ~= nil and nonempty(result) then
      break
    end
    if now_ms() >= deadline then
      break
    end
    vim.wait(100)
  end
  return result, err, attempts
end

local function position(buf, row, col)
  return { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = row, character = col } }
end

-- 0-based row and byte column of `needle` (plain) after the first line matching `anchor`.
local function locate(buf, anchor, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    if line:find(anchor, 1, true) then
      local s = line:find(needle, 1, true)
      if s then
        return i - 1, s - 1
      end
    end
  end
  error('not found: ' .. anchor .. ' / ' .. needle)
end

local function hover_text(result)
  local parts = {}
  local function add(c)
    if type(c) == 'string' then
      table.insert(parts, c)
    elseif type(c) == 'table' then
      if c.value then
        table.insert(parts, c.value)
      else
        for _, x in ipairs(c) do
          add(x)
        end
      end
    end
  end
  add(result and result.contents)
  return table.concat(parts, '\n')
end

local function locations(result)
  if result == nil then
    return {}
  end
  local list = (vim.islist or vim.tbl_islist)(result) and result or { result }
  return vim.tbl_map(function(l)
    return {
      uri = l.targetUri or l.uri,
      range = l.targetSelectionRange or l.range,
    }
  end, list)
end

local function labels(result)
  local items = result and (result.items or result) or {}
  local out = {}
  for _, item in ipairs(items) do
    table.insert(out, item.label)
  end
  table.sort(out)
  return out
end

local function step(name, fn)
  if not abort and now_ms() - T0 > BUDGET then
    abort = 'out of time (' .. BUDGET .. ' ms)'
  end
  if abort then
    R.errors[name] = 'skipped: ' .. abort
    return
  end
  local ok, err = pcall(fn)
  if not ok then
    R.errors[name] = tostring(err)
  end
end

local broken_buf, arm_buf

step('broken', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SDFORMAT_NVIM_BROKEN')))
  local buf = vim.api.nvim_get_current_buf()
  broken_buf = buf
  local B = { filetype = vim.bo[buf].filetype }
  R.broken = B
  B.client = wait_client(buf)
  B.syntax = vim.bo[buf].syntax
  B.commentstring = vim.bo[buf].commentstring
  if not B.client.attached then
    abort = 'the server did not attach to ' .. vim.api.nvim_buf_get_name(buf)
    return
  end
  local started = now_ms()
  B.got_typo = vim.wait(TIMEOUT, function()
    return has_code(buf, 'POSE_RELATIVE_TO_INVALID')
  end, 20)
  B.typo_ms = math.floor(now_ms() - started)
  B.diagnostics = diags(buf)
end)

step('fix', function()
  local buf = broken_buf
  local F = {}
  R.fix = F
  -- Point the misspelt reference at an existing link: relative_to="sholder" -> "base".
  -- (Correcting the spelling to "shoulder" would make a real cycle in this file: joint
  -- "shoulder" has no <pose>, so it is relative to its child "upper".)
  local row, col = locate(buf, 'relative_to="sholder"', 'sholder')
  F.row, F.col = row, col
  vim.api.nvim_buf_set_text(buf, row, col, row, col + #'sholder', { 'base' })
  F.line = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]
  local started = now_ms()
  F.cleared = vim.wait(TIMEOUT, function()
    return not has_code(buf, 'POSE_RELATIVE_TO_INVALID')
  end, 20)
  -- The other mistakes stay; wait (bounded) for them to be published again if they went first.
  vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(buf) > 0
  end, 20)
  F.ms = math.floor(now_ms() - started)
  F.diagnostics = diags(buf)
end)

step('arm', function()
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('SDFORMAT_NVIM_ARM')))
  arm_buf = vim.api.nvim_get_current_buf()
  R.arm = { filetype = vim.bo[arm_buf].filetype, client = wait_client(arm_buf) }
  if not R.arm.client.attached then
    abort = 'the server did not attach to ' .. vim.api.nvim_buf_get_name(arm_buf)
  end
  R.arm.clients_total = #(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients())
end)

step('xacro', function()
  -- A xacro file (editors/neovim/sdformat.lua only): filetype xacro, served by the same client.
  local file = os.getenv('SDFORMAT_NVIM_XACRO')
  if not file or file == '' then
    return
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  R.xacro = { filetype = vim.bo[buf].filetype, client = wait_client(buf) }
  vim.cmd('buffer ' .. arm_buf)
end)

local function hover_at(anchor, needle, offset)
  local row, col = locate(arm_buf, anchor, needle)
  col = col + (offset or 1)
  local result, err, attempts = poll(arm_buf, 'textDocument/hover', position(arm_buf, row, col), function(r)
    return hover_text(r) ~= ''
  end)
  return { row = row, col = col, text = hover_text(result), error = err, attempts = attempts }
end

step('hover_reference', function()
  -- On the reference in <pose relative_to="shoulder">.
  R.hover_reference = hover_at('relative_to="shoulder"', 'shoulder', 2)
end)

step('hover_name', function()
  -- On the name of <frame name="tool">.
  R.hover_name = hover_at('<frame name="tool"', 'tool', 1)
end)

step('definition', function()
  local row, col = locate(arm_buf, 'relative_to="shoulder"', 'shoulder')
  col = col + 2
  local result, err, attempts = poll(arm_buf, 'textDocument/definition', position(arm_buf, row, col), function(r)
    return #locations(r) > 0
  end)
  R.definition = { row = row, col = col, locations = locations(result), error = err, attempts = attempts }
end)

step('definition_jump', function()
  -- What a user does: cursor on the reference, vim.lsp.buf.definition() (gd), see where the cursor lands.
  local row, col = locate(arm_buf, 'relative_to="shoulder"', 'shoulder')
  vim.api.nvim_set_current_buf(arm_buf)
  vim.api.nvim_win_set_cursor(0, { row + 1, col + 2 })
  require_capability(arm_buf, 'textDocument/definition')
  local before = vim.api.nvim_win_get_cursor(0)
  vim.lsp.buf.definition()
  local moved = vim.wait(TIMEOUT, function()
    local c = vim.api.nvim_win_get_cursor(0)
    return c[1] ~= before[1] or c[2] ~= before[2]
  end, 20)
  local c = vim.api.nvim_win_get_cursor(0)
  R.definition_jump = {
    moved = moved,
    row = c[1] - 1,
    col = c[2],
    same_file = vim.api.nvim_get_current_buf() == arm_buf,
  }
end)

local function complete_at(anchor, needle)
  local row, col = locate(arm_buf, anchor, needle)
  local result, err, attempts = poll(arm_buf, 'textDocument/completion', position(arm_buf, row, col), function(r)
    return #labels(r) > 0
  end)
  return { row = row, col = col, labels = labels(result), error = err, attempts = attempts }
end

step('completion_relative_to', function()
  -- At the start of the value of <pose relative_to="shoulder"> in link "upper".
  R.completion_relative_to = complete_at('relative_to="shoulder"', 'shoulder')
end)

step('completion_parent', function()
  -- At the start of <parent>upper</parent> in joint "elbow" (the second <parent>upper).
  local lines = vim.api.nvim_buf_get_lines(arm_buf, 0, -1, false)
  local joint
  for i, line in ipairs(lines) do
    if line:find('<joint name="elbow"', 1, true) then
      joint = i
    end
    if joint and line:find('<parent>upper</parent>', 1, true) then
      local col = line:find('upper', 1, true) - 1
      local result, err, attempts = poll(arm_buf, 'textDocument/completion', position(arm_buf, i - 1, col), function(r)
        return #labels(r) > 0
      end)
      R.completion_parent = { row = i - 1, col = col, labels = labels(result), error = err, attempts = attempts }
      return
    end
  end
  error('elbow <parent> not found')
end)

step('completion_typed', function()
  -- Type a new frame with an empty attached_to="" and complete inside the quotes.
  local row = locate(arm_buf, '<link name="base"/>', '<link')
  local text = '    <frame name="probe" attached_to=""/>'
  vim.api.nvim_buf_set_lines(arm_buf, row + 1, row + 1, false, { text })
  local col = #'    <frame name="probe" attached_to="'
  local result, err, attempts = poll(arm_buf, 'textDocument/completion', position(arm_buf, row + 1, col), function(r)
    return #labels(r) > 0
  end)
  R.completion_typed = { row = row + 1, col = col, labels = labels(result), error = err, attempts = attempts }
end)

-- Virtual-text extmarks of a buffer, by diagnostic severity (as Neovim renders them now).
local function inline_severities(buf)
  local counts = {}
  local rendered = {}
  local spaces = {}
  for _, ns in pairs(vim.api.nvim_get_namespaces()) do
    spaces[ns] = true
  end
  -- Neovim 0.7 to 0.9 draw the virtual text in anonymous namespaces (not listed above), kept in
  -- the diagnostic namespace's user_data
  for id, _ in pairs(vim.diagnostic.get_namespaces()) do
    for _, v in pairs(vim.diagnostic.get_namespace(id).user_data or {}) do
      if type(v) == 'number' then
        spaces[v] = true
      end
    end
  end
  for ns, _ in pairs(spaces) do
    for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
      local d = m[4]
      if d and d.virt_text then
        for _, chunk in ipairs(d.virt_text) do
          table.insert(rendered, chunk[2] or '')
        end
      end
    end
  end
  for _, hl in ipairs(rendered) do
    for _, sev in ipairs({ 'Error', 'Warn', 'Info', 'Hint' }) do
      if hl == 'DiagnosticVirtualText' .. sev then
        counts[sev] = (counts[sev] or 0) + 1
      end
    end
  end
  return counts
end

step('repo', function()
  local P = { roots = {}, severities = {} }
  R.repo = P
  local files = vim.split(os.getenv('SDFORMAT_NVIM_REPO') or '', package.config:sub(1, 1) == '\\' and ';' or ':', { plain = true })
  local last
  for _, file in ipairs(files) do
    if file ~= '' then
      vim.cmd('edit ' .. vim.fn.fnameescape(file))
      last = vim.api.nvim_get_current_buf()
      local c = wait_client(last)
      if not c.attached then
        error('the server did not attach to ' .. file)
      end
      for _, client in ipairs(clients(last)) do
        table.insert(P.roots, client.config.root_dir or vim.NIL)
      end
    end
  end
  P.clients_total = #(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients())
  vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(last) > 0
  end, 20)
  for _, d in ipairs(vim.diagnostic.get(last)) do
    P.severities[#P.severities + 1] = d.severity
  end
  vim.api.nvim_set_current_buf(last)
  vim.cmd('redraw')
  local counts = inline_severities(last)
  P.virtual_text_informations = (counts.Info or 0) + (counts.Hint or 0)
  -- errors would still be shown inline: the sdformat namespace allows them
  local c = clients(last)[1]
  local nsopts = vim.diagnostic.config(nil, vim.lsp.diagnostic.get_namespace(c.id)) or {}
  local vt = nsopts.virtual_text
  if vt == nil then -- no setting of the namespace: the global one applies (the hand-written recipes)
    vt = (vim.diagnostic.config() or {}).virtual_text
  end
  P.virtual_text_errors_possible = vt == true or (type(vt) == 'table' and vt.severity ~= nil)
end)

local function write_results()
  local f = assert(io.open(os.getenv('SDFORMAT_NVIM_OUT'), 'w'))
  f:write(vim.json.encode(R))
  f:close()
end

local ok, err = pcall(write_results)
if not ok then
  io.stderr:write('could not write results: ' .. tostring(err) .. '\n')
end
vim.cmd('qa!')
