-- stateproof's language server in Neovim (0.7 or newer), with the built-in
-- LSP client: FCSTM, FBMCQ and RSC files (docs/lsp.md).
--
--   require('stateproof').setup()                       -- stateproof on PATH
--   require('stateproof').setup({ cmd = { '/path/to/stateproof', 'lsp' } })
--
-- Put this file on 'runtimepath' as lua/stateproof.lua, or dofile() it.
-- JSON models are served too: add 'json' to filetypes if you want the
-- server on every JSON file (it answers only those with a schemaVersion).
local M = {}

function M.setup(opts)
  opts = opts or {}
  local cmd = opts.cmd or { 'stateproof', 'lsp' }
  local filetypes = opts.filetypes or { 'fcstm', 'fbmcq', 'rsc' }
  local group = vim.api.nvim_create_augroup('stateproof', { clear = true })
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    group = group,
    pattern = { '*.fcstm', '*.fbmcq', '*.rsc' },
    callback = function(args)
      vim.bo[args.buf].filetype = vim.fn.fnamemodify(args.file, ':e')
    end,
  })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = filetypes,
    callback = function(args)
      local root = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h')
      if vim.lsp.start then -- Neovim 0.8 and newer
        vim.lsp.start({ name = 'stateproof', cmd = cmd, root_dir = root })
        return
      end
      -- Neovim 0.7: one client, attached to each buffer.
      if not M.client_id then
        M.client_id = vim.lsp.start_client({ name = 'stateproof', cmd = cmd, root_dir = root })
      end
      vim.lsp.buf_attach_client(args.buf, M.client_id)
    end,
  })
end

return M
