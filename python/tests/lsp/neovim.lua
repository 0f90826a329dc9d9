-- Drives `rcc lsp` from Neovim's built-in LSP client, headless (test_lsp.py runs it):
-- opens $DDL_DIR/shapes.jr, waits for its diagnostics, asks for a hover, and writes what
-- it got to $OUT as JSON. Works with Neovim 0.7 (Debian 12) and later.
local rcc, dir, out = os.getenv("RCC"), os.getenv("DDL_DIR"), os.getenv("OUT")

local function finish(result)
  local file = assert(io.open(out, "w"))
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd("qall!")
end

vim.cmd("edit " .. vim.fn.fnameescape(dir .. "/shapes.jr"))
local buf = vim.api.nvim_get_current_buf()
local config = { name = "rcc", cmd = { rcc, "lsp" }, root_dir = dir }
if vim.lsp.start then
  vim.lsp.start(config)
else
  vim.lsp.buf_attach_client(buf, vim.lsp.start_client(config))
end

if not vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 20) then
  finish({ error = "no diagnostics within 20 s" })
  return
end
local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(diagnostics, {
    line = d.lnum, col = d.col, end_line = d.end_lnum, end_col = d.end_col,
    severity = d.severity, message = d.message,
  })
end

-- Hover on the field `corners` (line 3, 0-based).
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  position = { line = 3, character = 30 },
}
local responses = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 20000) or {}
local hover
for _, response in pairs(responses) do
  if response.result then
    hover = response.result.contents.value
  end
end
finish({ diagnostics = diagnostics, hover = hover or vim.NIL })
