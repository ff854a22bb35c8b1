-- SDFormat (.sdf, .world), URDF (.urdf) and xacro (.xacro) support for Neovim 0.7 to 0.11+, backed by sdformat-lsp.
--
-- One file, three ways to use it (see docs/editors/neovim.md):
--
--   * as a module: copy it to ~/.config/nvim/lua/sdformat.lua and put
--       require('sdformat').setup({ cmd = { 'sdformat-lsp' } })
--     in your init.lua;
--   * as a plugin: copy it to ~/.config/nvim/plugin/sdformat.lua; it sets itself
--     up with the options in vim.g.sdformat_lsp (if any) when Neovim starts;
--   * to try it without touching your config:
--       nvim --clean -u editors/neovim/sdformat.lua examples/arm.sdf
--
-- Options (all optional):
--   cmd            command that starts the server (default { 'sdformat-lsp' })
--   resource_paths directories searched for model:// URIs (initializationOptions.resourcePaths)
--   debounce_ms    delay before re-checking after an edit (initializationOptions.debounceMs)
--   root_markers   what marks the project root, in groups of equal priority: the nearest directory
--                  holding a marker of the first group wins, else of the next group, else the
--                  file's own directory (default { { '.git', 'sdformat-lsp.toml' }, { 'pyproject.toml' } }:
--                  one server per repository, not one per model directory)
--   virtual_text   how diagnostics show as inline text (vim.diagnostic.config's virtual_text, for
--                  this server only); default: errors and warnings only, informations and hints
--                  stay in the sign column, underline, :lua vim.diagnostic.open_float() and the lists
--   inlay_hints    resolved poses after each <pose> (Neovim 0.10+; default true)
--   highlight_references  highlight the frame under the cursor and its references on CursorHold (default true)
--   folding        fold by XML elements with the server's folding ranges (Neovim 0.11+; default false,
--                  it sets the window's foldmethod)
--   on_attach      function(client, bufnr) called when the server attaches to a buffer
--   keymaps        buffer-local gd (definition) and K (hover) mappings (default true)
--   api            'auto' (default: the newest available), or force 'config' (0.11+),
--                  'start' (0.8+) or 'start_client' (all versions)
--
-- It picks the newest API the running Neovim has:
--   0.11+     vim.lsp.config('sdformat', {...}) + vim.lsp.enable('sdformat')
--   0.8-0.10  vim.lsp.start() from a FileType autocmd
--   0.7       vim.lsp.start_client() + vim.lsp.buf_attach_client()
-- and vim.filetype.add() (0.8+) or a BufRead/BufNewFile autocmd (0.7) for the filetype.

local M = {}

M.defaults = {
  cmd = { 'sdformat-lsp' },
  resource_paths = nil,
  debounce_ms = nil,
  root_markers = { { '.git', 'sdformat-lsp.toml' }, { 'pyproject.toml' } },
  virtual_text = 'default',
  inlay_hints = true,
  highlight_references = true,
  folding = false,
  on_attach = nil,
  keymaps = true,
  api = 'auto',
}

local function has(feature)
  return vim.fn.has(feature) == 1
end

local uv = vim.uv or vim.loop

-- Marker groups: a flat list of names is one group; a list of lists is groups in priority order.
local function marker_groups(markers)
  if type(markers[1]) == 'table' then
    return markers
  end
  return { markers }
end

-- The project root of `path`: the nearest ancestor directory holding a marker of the first
-- group, else of the next group, ...; else the file's own directory.
function M.find_root(path, markers)
  local start = vim.fn.fnamemodify(path, ':p:h')
  for _, group in ipairs(marker_groups(markers)) do
    local dir = start
    while dir and dir ~= '' do
      for _, marker in ipairs(group) do
        if uv.fs_stat(dir .. '/' .. marker) then
          return dir
        end
      end
      local parent = vim.fn.fnamemodify(dir, ':h')
      if parent == dir then
        break
      end
      dir = parent
    end
  end
  return start
end

function M.init_options(opts)
  local init = {}
  if opts.resource_paths and #opts.resource_paths > 0 then
    init.resourcePaths = opts.resource_paths
  end
  if opts.debounce_ms then
    init.debounceMs = opts.debounce_ms
  end
  return init
end

-- Informations and hints are useful in the lists and on hover, but as inline text on every
-- line they drown the errors: keep them out of virtual text unless the user asks otherwise.
local function diagnostic_display(opts, client)
  local vt = opts.virtual_text
  if vt == 'default' then
    vt = { severity = { min = vim.diagnostic.severity.WARN } }
  end
  local ns = { vim.lsp.diagnostic.get_namespace(client.id) }
  if has('nvim-0.10') then
    table.insert(ns, vim.lsp.diagnostic.get_namespace(client.id, true)) -- pulled diagnostics
  end
  for _, n in ipairs(ns) do
    vim.diagnostic.config({ virtual_text = vt }, n)
  end
end

-- The newer LSP features, each where this Neovim has it.
local function editor_features(opts, client, bufnr)
  local caps = client.server_capabilities or {}
  if opts.inlay_hints and caps.inlayHintProvider and vim.lsp.inlay_hint and vim.lsp.inlay_hint.enable then
    pcall(vim.lsp.inlay_hint.enable, true, { bufnr = bufnr }) -- 0.10+
  end
  if opts.highlight_references and caps.documentHighlightProvider then
    local group = vim.api.nvim_create_augroup('sdformat_highlight_' .. bufnr, { clear = true })
    vim.api.nvim_create_autocmd({ 'CursorHold', 'CursorHoldI' }, {
      group = group, buffer = bufnr, callback = function() vim.lsp.buf.document_highlight() end,
    })
    vim.api.nvim_create_autocmd({ 'CursorMoved', 'CursorMovedI', 'BufLeave' }, {
      group = group, buffer = bufnr, callback = function() vim.lsp.buf.clear_references() end,
    })
  end
  if opts.folding and caps.foldingRangeProvider and vim.lsp.foldexpr then -- 0.11+
    for _, win in ipairs(vim.fn.win_findbuf(bufnr)) do
      vim.wo[win].foldmethod = 'expr'
      vim.wo[win].foldexpr = 'v:lua.vim.lsp.foldexpr()'
      vim.wo[win].foldlevel = 99
    end
  end
  if caps.linkedEditingRangeProvider and vim.lsp.linked_editing_range then -- 0.12+
    pcall(vim.lsp.linked_editing_range.enable, true, { client_id = client.id })
  end
  if caps.colorProvider and vim.lsp.document_color then -- 0.12+
    pcall(vim.lsp.document_color.enable, true, bufnr)
  end
end

local function on_attach(opts)
  return function(client, bufnr)
    diagnostic_display(opts, client)
    editor_features(opts, client, bufnr)
    if not has('nvim-0.8') then
      -- 0.8+ sets omnifunc (and tagfunc) for LSP buffers itself.
      vim.api.nvim_buf_set_option(bufnr, 'omnifunc', 'v:lua.vim.lsp.omnifunc')
    end
    if opts.keymaps then
      local map = function(lhs, fn, desc)
        vim.keymap.set('n', lhs, fn, { buffer = bufnr, silent = true, desc = desc })
      end
      map('gd', vim.lsp.buf.definition, 'SDFormat: go to the frame definition')
      map('K', vim.lsp.buf.hover, 'SDFormat: resolved pose')
    end
    if opts.on_attach then
      opts.on_attach(client, bufnr)
    end
  end
end

-- Filetype: *.sdf and *.world are 'sdformat', *.urdf is 'urdf', *.xacro (my_robot.urdf.xacro...) is 'xacro'.
local function setup_filetype(group)
  if has('nvim-0.8') then
    vim.filetype.add({ extension = { sdf = 'sdformat', world = 'sdformat', urdf = 'urdf', xacro = 'xacro' } })
  else
    vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
      group = group,
      pattern = { '*.sdf', '*.world' },
      command = 'set filetype=sdformat',
    })
    vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
      group = group,
      pattern = { '*.urdf' },
      command = 'set filetype=urdf',
    })
    vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
      group = group,
      pattern = { '*.xacro' },
      command = 'set filetype=xacro',
    })
  end
  if vim.treesitter and vim.treesitter.language and vim.treesitter.language.register then
    -- 0.9+: sdformat buffers use the xml tree-sitter parser (e.g. with nvim-treesitter).
    pcall(vim.treesitter.language.register, 'xml', 'sdformat')
    pcall(vim.treesitter.language.register, 'xml', 'urdf')
    pcall(vim.treesitter.language.register, 'xml', 'xacro')
  end
end

-- Buffer settings: XML highlighting, indentation and comments.
local function setup_buffer(bufnr)
  -- Scheduled so that it runs after Neovim's own FileType handlers, which would
  -- otherwise reset 'syntax' to the (non-existent) "sdformat" syntax.
  vim.schedule(function()
    if not vim.api.nvim_buf_is_valid(bufnr) then
      return
    end
    vim.api.nvim_buf_call(bufnr, function()
      if vim.bo.syntax ~= 'xml' then
        vim.bo.syntax = 'xml'
      end
      if vim.b.did_indent == nil then
        vim.cmd('runtime! indent/xml.vim')
      end
      vim.bo.commentstring = '<!--%s-->'
    end)
  end)
end

local function start_modern(opts)
  -- Neovim 0.11+: declarative config, started by Neovim on FileType.
  vim.lsp.config('sdformat', {
    cmd = opts.cmd,
    filetypes = { 'sdformat', 'urdf', 'xacro' },
    -- Our own root search (marker groups), the same on every version.
    root_dir = function(bufnr, on_dir)
      local name = vim.api.nvim_buf_get_name(bufnr)
      on_dir(M.find_root(name ~= '' and name or vim.fn.getcwd() .. '/x', opts.root_markers))
    end,
    init_options = M.init_options(opts),
    on_attach = on_attach(opts),
  })
  vim.lsp.enable('sdformat')
end

local clients_by_root = {} -- Neovim 0.7: one client per project root

local function start_for_buffer(opts, api, bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local path = name ~= '' and name or vim.fn.getcwd() .. '/x'
  local config = {
    name = 'sdformat',
    cmd = opts.cmd,
    root_dir = M.find_root(path, opts.root_markers),
    init_options = M.init_options(opts),
    on_attach = on_attach(opts),
  }
  if api == 'start' then
    -- Neovim 0.8-0.10: reuses the running client with the same name and root_dir.
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  -- 'start_client': Neovim 0.7 (still works, deprecated, on 0.11)
  local id = clients_by_root[config.root_dir]
  if not id or not vim.lsp.get_client_by_id(id) or vim.lsp.client_is_stopped(id) then
    config.workspace_folders = { { uri = vim.uri_from_fname(config.root_dir), name = config.root_dir } }
    id = vim.lsp.start_client(config)
    if not id then
      vim.notify('sdformat: could not start ' .. table.concat(opts.cmd, ' '), vim.log.levels.ERROR)
      return
    end
    clients_by_root[config.root_dir] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

function M.setup(user_opts)
  local opts = vim.tbl_extend('force', {}, M.defaults, user_opts or {})
  M.options = opts
  local group = vim.api.nvim_create_augroup('sdformat', { clear = true })
  setup_filetype(group)

  local api = opts.api
  if api == 'auto' then
    if type(vim.lsp.config) == 'table' and type(vim.lsp.enable) == 'function' then
      api = 'config'
    elseif vim.lsp.start then
      api = 'start'
    else
      api = 'start_client'
    end
  end
  M.api = api -- which one is in use
  local modern = api == 'config'
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = { 'sdformat', 'urdf', 'xacro' },
    callback = function(args)
      setup_buffer(args.buf)
      if not modern then
        start_for_buffer(opts, api, args.buf)
      end
    end,
  })
  if modern then
    start_modern(opts)
  end

  -- Buffers that were already open when setup() ran (e.g. a lazily loaded config).
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains({ 'sdformat', 'urdf', 'xacro' }, vim.bo[bufnr].filetype) then
      setup_buffer(bufnr)
      if not modern then
        start_for_buffer(opts, api, bufnr)
      end
    end
  end
  return M
end

-- Sourced as a file (nvim -u, plugin/ directory, :luafile) rather than require()d:
-- set up right away with the options in vim.g.sdformat_lsp.
if ... == nil then
  package.loaded['sdformat'] = M
  M.setup(vim.g.sdformat_lsp or {})
end

return M
