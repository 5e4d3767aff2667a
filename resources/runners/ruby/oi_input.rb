# frozen_string_literal: true

# Input requests for the Ruby session (docs/exec-protocol.md#input). A cell runs under a terminal
# nobody types into directly, so `gets` would wait until the run timed out. $stdin and STDIN are
# therefore an object whose reads ask main for a line: main asks the person, or answers
# end-of-input at once when there is nobody. `gets` (through ARGF), `$stdin.read`, `each_line`,
# `STDIN.getpass` and `noecho` go through it; like a terminal, an answer is echoed after the prompt
# (a password is not). What an IO has and this object lacks (fileno, tty?, to_io for
# `spawn(in: $stdin)`, winsize…) is answered by the real stream on fd 0, which subprocesses inherit.
module OiInput
  class Stdin
    # ask: (prompt, password) -> the line typed (no newline), or nil at end-of-input.
    # echo: writes text to the cell's stdout.
    def initialize(real, ask, echo)
      @real = real
      @ask = ask
      @echo = echo
      @pending = +''
      @noecho = false
    end

    def gets(sep = $/, limit = nil, chomp: false)
      if sep.is_a?(Integer)
        limit = sep
        sep = $/
      end
      line = next_line
      return nil if line.nil?

      if limit && limit >= 0 && line.bytesize > limit
        @pending = line.byteslice(limit..) + @pending
        line = line.byteslice(0, limit)
      end
      chomp && sep ? line.chomp(sep) : line
    end

    def readline(*args, **options)
      gets(*args, **options) || raise(EOFError, 'end of file reached (no input was given)')
    end

    def each_line(*args, **options)
      return enum_for(:each_line, *args, **options) unless block_given?

      while (line = gets(*args, **options))
        yield line
      end
      self
    end
    alias each each_line

    def readlines(*args, **options)
      each_line(*args, **options).to_a
    end

    def read(length = nil, outbuf = nil)
      text = +''
      while length.nil? || text.bytesize < length
        line = next_line
        break if line.nil?

        text << line
      end
      if length && text.bytesize > length
        @pending = text.byteslice(length..) + @pending
        text = text.byteslice(0, length)
      end
      return nil if length&.positive? && text.empty?

      outbuf ? outbuf.replace(text) : text
    end

    def getc
      read(1)
    end

    # io/console's getpass: the prompt shown, the answer masked for the person and not echoed.
    def getpass(prompt = nil)
      answer = ask_line(prompt.to_s, true)
      answer&.chomp
    end

    def noecho
      was = @noecho
      @noecho = true
      yield self
    ensure
      @noecho = was
    end

    def echo=(flag)
      @noecho = !flag
    end

    def echo?
      !@noecho
    end

    def eof?
      false # it cannot be known before asking
    end
    alias eof eof?

    def fileno
      0
    end

    def to_io
      @real
    end

    def tty?
      @real.tty?
    end
    alias isatty tty?

    def close
      nil # closing stdin in a cell must not close it for the next one
    end

    def closed?
      false
    end

    def inspect
      '#<IO:<STDIN>>'
    end

    def respond_to_missing?(name, include_private = false)
      @real.respond_to?(name, include_private) || super
    end

    def method_missing(name, *args, &block)
      return @real.public_send(name, *args, &block) if @real.respond_to?(name)

      super
    end

    private

    # A line with its newline, or nil at end-of-input; the prompt is what the cell printed last.
    def next_line
      unless @pending.empty?
        line = @pending
        @pending = +''
        return line
      end
      ask_line('', @noecho)
    end

    def ask_line(prompt, password)
      answer = @ask.call(prompt, password)
      return nil if answer.nil?

      @echo.call(password ? "\n" : "#{answer}\n")
      "#{answer}\n"
    end
  end

  def self.install(ask, echo)
    @original = STDIN # kept referenced, so the real IO is never finalized
    stdin = Stdin.new(STDIN, ask, echo)
    Object.send(:remove_const, :STDIN)
    Object.const_set(:STDIN, stdin)
    $stdin = stdin
  end
end
