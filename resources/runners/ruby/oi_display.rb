# frozen_string_literal: true

# Rich outputs for the Ruby runner: MIME bundles for values, display(), HTML/Markdown/Image.
#
# The same outputs as the Python and Node runners (Jupyter display_data / execute_result). An
# object can describe its own views by defining `to_mimebundle`, returning a Hash such as
# { 'text/html' => '<b>hi</b>' } (or [bundle, metadata]); that is how HTML(), Markdown() and
# Image() work, and how a user's class can render as a table or a picture.
module OiDisplay
  TEXT_LIMIT = 1_000_000
  BINARY_MIMES = %w[image/png image/jpeg image/gif image/webp application/pdf].freeze
  MAGIC = [
    ["\x89PNG\r\n\x1a\n".b, 'image/png'],
    ["\xff\xd8\xff".b, 'image/jpeg'],
    ['GIF87a'.b, 'image/gif'],
    ['GIF89a'.b, 'image/gif'],
  ].freeze

  class << self
    attr_writer :emitter

    # display(obj, …) shows each object under the cell in the richest form it offers.
    # display(text, mime: 'text/html') sends the text as that type (bytes or a file for image
    # types); display(bundle, raw: true) sends a MIME bundle Hash as given.
    def display(*objects, mime: nil, raw: false, metadata: nil)
      objects.each do |object|
        data, meta = if raw
                       [object.to_h.transform_keys(&:to_s), {}]
                     elsif mime
                       typed(object, mime.to_s)
                     else
                       bundle(object, for_display: true)
                     end
        meta = meta.merge(metadata.transform_keys(&:to_s)) if metadata
        send_output({ 'output_type' => 'display_data', 'data' => data, 'metadata' => meta })
      end
      nil
    end

    def result_output(value, execution_count)
      data, meta = bundle(value)
      { 'output_type' => 'execute_result', 'execution_count' => execution_count, 'data' => data, 'metadata' => meta }
    end

    # [data, metadata] for an object: every MIME type it offers, plus text/plain.
    def bundle(object, for_display: false)
      data = {}
      meta = {}
      own = own_bundle(object)
      if own
        own_data, own_meta = own
        own_data.each { |type, value| add(data, type.to_s, value) }
        meta.merge!(own_meta.transform_keys(&:to_s)) if own_meta.is_a?(Hash)
      elsif object.is_a?(String) && (type = raster_type(object))
        add(data, type, object)
        data['text/plain'] = "<#{type}, #{object.bytesize} bytes>"
      elsif for_display && (picture = picture_file(object))
        return bundle(picture)
      end
      if for_display && object.is_a?(String) && data.empty?
        data['text/plain'] = clip(object) # display("text") shows the text, not its inspect
      end
      data['text/plain'] = plain(object) unless data['text/plain'].is_a?(String)
      [data, meta]
    end

    # The image type of bytes (PNG, JPEG, GIF, WebP or SVG), or nil.
    def sniff(bytes)
      head = bytes.byteslice(0, 1024).b
      found = MAGIC.find { |magic, _| head.start_with?(magic) }
      return found[1] if found
      return 'image/webp' if head.start_with?('RIFF') && head.byteslice(8, 4) == 'WEBP'
      return 'image/svg+xml' if head.include?('<svg')

      nil
    end

    def base64(bytes)
      [bytes].pack('m0')
    end

    private

    def own_bundle(object)
      return nil unless object.respond_to?(:to_mimebundle)

      found = object.to_mimebundle
      found = [found, {}] if found.is_a?(Hash)
      return nil unless found.is_a?(Array) && found[0].is_a?(Hash)

      found
    rescue StandardError
      nil # a broken optional view must not fail the cell
    end

    # Raster image bytes in a String (what File.binread gives); SVG text stays text.
    def raster_type(string)
      return nil if string.encoding != Encoding::BINARY && string.valid_encoding? && string.ascii_only?

      type = sniff(string)
      type == 'image/svg+xml' ? nil : type
    end

    # display(Pathname('plot.png')) or display(File.open('plot.png')) shows the picture.
    def picture_file(object)
      return nil unless object.respond_to?(:to_path) && !object.is_a?(String)

      path = object.to_path
      return nil unless File.file?(path)

      Image.new(path)
    rescue StandardError
      nil
    end

    def typed(object, type)
      if BINARY_MIMES.include?(type)
        bytes = bytes_of(object, type)
        return [{ type => base64(bytes), 'text/plain' => "<#{type}, #{bytes.bytesize} bytes>" }, {}]
      end
      text = object.respond_to?(:to_path) && !object.is_a?(String) ? File.read(object.to_path) : object.to_s
      [{ type => text, 'text/plain' => clip(text) }, {}]
    end

    # Bytes for an image type: the String itself, or the file it names when it is a path.
    def bytes_of(object, type)
      return File.binread(object.to_path) if object.respond_to?(:to_path) && !object.is_a?(String)

      string = object.to_s
      path_like = string.bytesize < 4096 && !string.include?("\0") && sniff(string) != type
      path_like && File.file?(string) ? File.binread(string) : string
    end

    def add(data, type, value)
      return if value.nil?

      if BINARY_MIMES.include?(type)
        return unless value.is_a?(String)

        data[type] = base64_text?(value) ? value : base64(value)
      elsif value.is_a?(String)
        data[type] = value.encoding == Encoding::BINARY ? value.dup.force_encoding(Encoding::UTF_8).scrub : value
      else
        data[type] = type.start_with?('text/') || type == 'image/svg+xml' ? value.to_s : value
      end
    end

    # A bundle's image may already be base64 text (as Jupyter bundles carry it) or raw bytes.
    def base64_text?(value)
      value.encoding != Encoding::BINARY && value.ascii_only? && value.match?(%r{\A[A-Za-z0-9+/\s]*={0,2}\s*\z})
    end

    def plain(object)
      clip(object.inspect.to_s)
    rescue StandardError => e # a broken inspect must not fail the cell that produced the value
      "<#{object.class} object; inspect failed: #{e.class}: #{e.message}>"
    end

    def clip(text)
      return text if text.length <= TEXT_LIMIT

      "#{text[0, TEXT_LIMIT]}\n… (#{text.length - TEXT_LIMIT} more characters)"
    end

    def send_output(output)
      raise 'display() works only inside the Open Interpreter runner' unless @emitter

      @emitter.call(output)
    end
  end

  # Text shown as its MIME type (a subclass names it), with itself as the plain-text fallback.
  class TextDisplay
    attr_reader :source

    def initialize(source)
      @source = source.to_s
    end

    def to_mimebundle
      { self.class::MIME => source, 'text/plain' => source }
    end

    def inspect
      source
    end
    alias to_s inspect
  end

  # HTML(source) displays as rendered HTML.
  class HTML < TextDisplay
    MIME = 'text/html'
  end

  # Markdown(source) displays as rendered Markdown.
  class Markdown < TextDisplay
    MIME = 'text/markdown'
  end

  # Image(path_or_bytes, width: nil, height: nil): a PNG, JPEG, GIF, WebP or SVG file or bytes.
  # A String holding image bytes is the image; any other String is a file path.
  class Image
    attr_reader :bytes, :mime, :width, :height

    def initialize(source, width: nil, height: nil)
      @bytes = if source.respond_to?(:to_path) && !source.is_a?(String)
                 File.binread(source.to_path)
               elsif source.is_a?(String) && OiDisplay.sniff(source)
                 source.b
               elsif source.is_a?(String)
                 File.binread(source)
               else
                 raise TypeError, 'Image() takes a file path or image bytes'
               end
      @mime = OiDisplay.sniff(@bytes) || raise(ArgumentError, 'Image(): not a PNG, JPEG, GIF, WebP or SVG image')
      @width = width
      @height = height
    end

    def to_mimebundle
      payload = mime == 'image/svg+xml' ? bytes.dup.force_encoding(Encoding::UTF_8).scrub : OiDisplay.base64(bytes)
      size = { 'width' => width, 'height' => height }.compact
      [{ mime => payload, 'text/plain' => inspect }, size.empty? ? {} : { mime => size }]
    end

    def inspect
      "<Image #{mime}, #{bytes.bytesize} bytes>"
    end
    alias to_s inspect
  end

  # What a cell sees at the top level (the session's main object is extended with it).
  module Helpers
    def display(*objects, mime: nil, raw: false, metadata: nil)
      OiDisplay.display(*objects, mime: mime, raw: raw, metadata: metadata)
    end

    def HTML(source) # rubocop:disable Naming/MethodName -- reads like the Python and Node helpers
      OiDisplay::HTML.new(source)
    end

    def Markdown(source) # rubocop:disable Naming/MethodName
      OiDisplay::Markdown.new(source)
    end

    def Image(source, width: nil, height: nil) # rubocop:disable Naming/MethodName
      OiDisplay::Image.new(source, width: width, height: height)
    end
  end
end
