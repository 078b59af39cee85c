package io.kvscope.gui.export;

import java.io.File;
import java.nio.file.Path;
import java.util.Optional;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/** The platform's own file dialogs, owned by the workbench window. */
public final class FxFileChoosers implements FileChoosers {

  private final Window owner;

  public FxFileChoosers(Window owner) {
    this.owner = owner;
  }

  @Override
  public Optional<Path> saveFile(String title, String suggestedName, String extension) {
    FileChooser chooser = new FileChooser();
    chooser.setTitle(title);
    chooser.setInitialFileName(suggestedName);
    chooser.getExtensionFilters().add(
        new FileChooser.ExtensionFilter(extension.toUpperCase(java.util.Locale.ROOT) + " files", "*." + extension));
    File file = chooser.showSaveDialog(owner);
    return Optional.ofNullable(file).map(File::toPath);
  }

  @Override
  public Optional<Path> directory(String title) {
    DirectoryChooser chooser = new DirectoryChooser();
    chooser.setTitle(title);
    File dir = chooser.showDialog(owner);
    return Optional.ofNullable(dir).map(File::toPath);
  }
}
