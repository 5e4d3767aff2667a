# frozen_string_literal: true

require 'fileutils'
require 'json'

# `files`: small file helpers whose relative paths mean "in the conversation's workspace", the
# same helpers as the Python and Node runners have (oi_files.py, files.mjs).
#
# Like those, a relative path resolves against the workspace whatever the cell's working directory
# is, and an absolute or ~ path is used as given: the helpers are a convenience for code that can
# open any file anyway, not a boundary. They return plain data (String, Array, Hash) and let
# Ruby's own exceptions through (Errno::ENOENT, Errno::ENOTDIR, Errno::EACCES…), which name the path.
module OiFiles
  # Folders that recursive listing and search step over: tool caches and installed packages dwarf
  # a workspace's own files. Pass such a folder as the path to look inside it anyway.
  SKIP_DIRS = %w[
    .git .hg .svn node_modules .venv venv __pycache__ .mypy_cache .pytest_cache .tox .ipynb_checkpoints
  ].freeze
  SEARCH_MAX_FILE = 20 * 1024 * 1024
  SEARCH_MAX_LINE = 500

  # A Regexp for a glob: * and ? stay within a path segment, ** crosses segments, [abc] and {a,b}
  # as in shells.
  def self.glob_regex(pattern)
    Regexp.new("\\A#{glob_body(pattern)}\\z", Regexp::MULTILINE)
  end

  def self.glob_body(pattern)
    out = +''
    i = 0
    while i < pattern.length
      c = pattern[i]
      if pattern[i, 3] == '**/'
        out << '(?:.*/)?'
        i += 3
        next
      elsif pattern[i, 2] == '**'
        out << '.*'
        i += 2
        next
      elsif c == '*'
        out << '[^/]*'
      elsif c == '?'
        out << '[^/]'
      elsif c == '[' && (close = pattern.index(']', i + 2))
        body = pattern[(i + 1)...close]
        negate = body.start_with?('!', '^')
        body = body[1..] if negate
        out << "[#{negate ? '^' : ''}#{body.gsub('\\', '\\\\\\\\')}]"
        i = close
      elsif c == '{' && (close = pattern.index('}', i))
        alternatives = pattern[(i + 1)...close].split(',', -1)
        out << "(?:#{alternatives.map { |a| glob_body(a) }.join('|')})"
        i = close
      else
        out << Regexp.escape(c)
      end
      i += 1
    end
    out
  end

  # [relative path with '/' separators, directory?] for everything under root, minus SKIP_DIRS:
  # a folder's subfolders first, then its files, each sorted by name, then the subfolders' contents.
  def self.walk(root, prefix = '', &block)
    return enum_for(:walk, root, prefix) unless block

    entries = Dir.children(File.join(root, prefix)).sort
    dirs = entries.select { |name| File.directory?(File.join(root, prefix, name)) && !SKIP_DIRS.include?(name) }
    dirs.each { |d| yield "#{prefix}#{d}", true }
    (entries - dirs).each do |name|
      yield "#{prefix}#{name}", false unless SKIP_DIRS.include?(name) && File.directory?(File.join(root, prefix, name))
    end
    dirs.each do |d|
      next if File.symlink?(File.join(root, prefix, d)) # listed, not entered: links may loop

      begin
        walk(root, "#{prefix}#{d}/", &block)
      rescue SystemCallError
        nil # unreadable folders are skipped, as grep -r does
      end
    end
  end

  # [line number, line] for a text file; nothing for binary, huge, unreadable or vanished files.
  def self.text_lines(full)
    return [] if File.size(full) > SEARCH_MAX_FILE

    data = File.binread(full)
    return [] if data.byteslice(0, 8192).include?("\0")

    text = data.force_encoding(Encoding::UTF_8).scrub
    text.split(/\r\n|\n|\r/).each_with_index.map { |line, i| [i + 1, line] }
  rescue SystemCallError, IOError
    []
  end

  # File helpers; relative paths resolve against the workspace.
  #
  #   files.read(path, binary: false)            -> String (UTF-8 text, or bytes)
  #   files.write(path, data, append: false)      -> absolute path written (Hash/Array saved as JSON)
  #   files.list(path = '.', pattern = nil)       -> sorted names, folders end with '/'
  #   files.delete(path, recursive: false)        -> nil
  #   files.search(text, path = '.', pattern: nil, ignore_case: false, max_results: 1000)
  #                                               -> [{ path:, line:, text: }]
  #   files.exist?(path)                          -> true/false
  class Files
    attr_reader :workspace

    def initialize(workspace)
      @workspace = File.expand_path(workspace)
    end

    def inspect
      "<files: read, write, list, delete, search, exist?; relative paths are in #{workspace}>"
    end
    alias to_s inspect

    # The absolute path a helper would use for `path`.
    def path(path = '.')
      path = path.to_path if path.respond_to?(:to_path)
      path = path.to_s
      path = Dir.home + path[1..] if path == '~' || path.start_with?('~/')
      File.expand_path(path, workspace)
    end

    def read(path, binary: false, encoding: 'UTF-8')
      full = self.path(path)
      data = File.binread(full)
      return data if binary

      text = data.force_encoding(encoding)
      return text.encode(Encoding::UTF_8) if text.valid_encoding?

      offset = first_bad_byte(text)
      raise ArgumentError, "#{full} is not #{encoding} text (bad byte at offset #{offset}); " \
                           'use files.read(path, binary: true) for its bytes'
    end

    def write(path, data, append: false)
      full = self.path(path)
      data = "#{JSON.pretty_generate(data)}\n" if data.is_a?(Hash) || data.is_a?(Array)
      raise TypeError, "files.write() takes a String, a Hash or an Array, not #{data.class}" unless data.is_a?(String)

      FileUtils.mkdir_p(File.dirname(full))
      File.open(full, append ? 'ab' : 'wb') { |f| f.write(data) }
      full
    end

    def exist?(path)
      File.exist?(self.path(path)) || File.symlink?(self.path(path))
    end
    alias exists? exist?

    def list(path = '.', pattern = nil)
      root = self.path(path)
      if pattern.nil? || (!pattern.include?('/') && !pattern.include?('**'))
        match = pattern && OiFiles.glob_regex(pattern)
        names = Dir.children(root).select { |name| match.nil? || match.match?(name) }
        return names.map { |name| File.directory?(File.join(root, name)) ? "#{name}/" : name }.sort
      end
      Dir.children(root) # raises ENOENT / ENOTDIR naming the path
      match = OiFiles.glob_regex(pattern)
      OiFiles.walk(root).select { |relative, _| match.match?(relative) }
             .map { |relative, dir| dir ? "#{relative}/" : relative }.sort
    end

    def delete(path, recursive: false)
      full = self.path(path)
      if File.directory?(full) && !File.symlink?(full)
        if recursive
          FileUtils.rm_r(full)
        elsif !Dir.empty?(full)
          raise Errno::ENOTEMPTY, "#{full} (pass recursive: true to delete it with its contents)"
        else
          Dir.rmdir(full)
        end
      else
        File.unlink(full)
      end
      nil
    end

    def search(text, path = '.', pattern: nil, ignore_case: false, max_results: 1000)
      text = text.to_s
      raise ArgumentError, 'files.search() needs some text to look for' if text.empty?

      root = self.path(path)
      needle = ignore_case ? text.downcase : text
      match = pattern && OiFiles.glob_regex(pattern)
      candidates = if File.directory?(root)
                     OiFiles.walk(root).reject { |_, dir| dir }.map { |relative, _| [File.join(root, relative), relative] }
                   elsif File.exist?(root)
                     [[root, File.basename(root)]]
                   else
                     raise Errno::ENOENT, root
                   end
      results = []
      candidates.each do |full, relative|
        next if match && !match.match?(relative) && !match.match?(File.basename(relative))

        OiFiles.text_lines(full).each do |number, line|
          next unless (ignore_case ? line.downcase : line).include?(needle)

          results << { path: shown(full), line: number, text: line[0, SEARCH_MAX_LINE] }
          return results if results.length >= max_results
        end
      end
      results
    end

    private

    def shown(full)
      prefix = workspace.end_with?('/') ? workspace : "#{workspace}/"
      full.start_with?(prefix) ? full.delete_prefix(prefix) : full
    end

    def first_bad_byte(text)
      offset = 0
      text.each_char do |char|
        return offset unless char.valid_encoding?

        offset += char.bytesize
      end
      offset
    end
  end
end
