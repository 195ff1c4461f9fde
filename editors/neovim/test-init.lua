-- Headless Neovim for internal/lsp's TestNeovimClient: opens the file given
-- on the command line with stateproof.lua's setup, waits (at most 15 s)
-- for the server's diagnostics and writes them as JSON to
-- $STATEPROOF_DIAG_OUT, then quits.
--
--   STATEPROOF_BIN=... STATEPROOF_DIAG_OUT=out.json \
--     nvim --headless -u editors/neovim/test-init.lua broken.fcstm
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local stateproof = dofile(here .. '/stateproof.lua')
stateproof.setup({ cmd = { os.getenv('STATEPROOF_BIN') or 'stateproof', 'lsp' } })

local out = assert(os.getenv('STATEPROOF_DIAG_OUT'), 'STATEPROOF_DIAG_OUT is not set')

vim.api.nvim_create_autocmd('VimEnter', {
  callback = function()
    local got = vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 50)
    local items = {}
    for _, d in ipairs(vim.diagnostic.get(0)) do
      local lsp = d.user_data and d.user_data.lsp or {}
      table.insert(items, {
        lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
        severity = d.severity, message = d.message, code = d.code or lsp.code,
      })
    end
    vim.fn.writefile({ vim.fn.json_encode({ received = got, diagnostics = items }) }, out)
    vim.cmd('qall!')
  end,
})
