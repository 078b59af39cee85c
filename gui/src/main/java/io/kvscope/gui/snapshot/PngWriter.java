package io.kvscope.gui.snapshot;

import io.kvscope.index.store.OwnerOnly;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import javafx.scene.image.Image;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.PixelReader;
import javax.imageio.ImageIO;

/** Encodes a JavaFX image as PNG through {@code javax.imageio}, written owner-only like every kvscope output. */
public final class PngWriter {

  private PngWriter() {}

  public static byte[] encode(Image image) throws IOException {
    int width = (int) image.getWidth();
    int height = (int) image.getHeight();
    PixelReader reader = image.getPixelReader();
    if (reader == null) {
      throw new IOException("the image has no readable pixels");
    }
    int[] argb = new int[width * height];
    reader.getPixels(0, 0, width, height, PixelFormat.getIntArgbInstance(), argb, 0, width);
    BufferedImage buffered = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
    buffered.setRGB(0, 0, width, height, argb, 0, width);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (!ImageIO.write(buffered, "png", out)) {
      throw new IOException("no PNG encoder in this JVM");
    }
    return out.toByteArray();
  }

  public static void write(Image image, Path file) throws IOException {
    OwnerOnly.writeAtomically(file, encode(image));
  }
}
